//===- gpuguard/abi.h - The site-table ABI version --------------*- C++ -*-===//
///
/// \file
/// The version of what an instrumented copy hands the runtime: the layout of
/// SiteInfo, the SiteTableRegistrar call and the kind values of
/// site_kinds.def. `gpuguard instrument` writes it into every copy's
/// registration; the runtime library refuses a table of another version, so
/// that a copy made by one gpuguard and linked with another's runtime says so
/// instead of reporting the wrong checks. Raise it with any such change;
/// SiteInfo's first field stays the file's path, by which a refused table
/// is named.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ABI_H
#define GPUGUARD_ABI_H

#define GPUGUARD_SITE_TABLE_ABI_VERSION 1

#endif // GPUGUARD_ABI_H
