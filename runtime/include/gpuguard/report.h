//===- gpuguard/report.h - Host entry points of the runtime reporter ------===//
///
/// \file
/// The host reporter's public entry points for host-side checks (the LibTorch
/// checks, and anything else that finds a failure on the host). A report is
/// printed once per site, in the UBSan shape
///   FILE:LINE:COL: runtime error: <what> (<values>) in <function> [<check>]
/// later failures at the same site are only counted, and `halt_on_error=1`
/// in GPUGUARD_OPTIONS aborts after the first report. Every function here is
/// thread-safe and has no CUDA dependency (link gpuguard::runtime).
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_REPORT_H
#define GPUGUARD_REPORT_H

#include <string>

namespace gpuguard {
namespace rt {

struct SiteInfo; // Defined in <gpuguard/rt.h>.

/// Reports a failed host check at \p Site, as
/// `FILE:LINE:COL: runtime error: <WhatFailed> (<Values>) in <Function>
/// [<Check>]` on one line. The " (<Values>)" part is left out when \p Values is
/// empty. \p WhatFailed is lower case without a final full stop, e.g.
/// "embedding index out of range";
/// \p Values names the numbers, e.g. "index 1000, num_embeddings 1000".
void reportHost(const SiteInfo &Site, const char *WhatFailed,
                const std::string &Values);

/// The same, naming a second site whose action this failure depends on:
/// `... in <Function>, <RelatedRole> at RFILE:RLINE:RCOL [<Check>]`,
/// e.g. RelatedRole = "saved for backward" with \p RelatedSite the
/// TorchSavedForBackward site. The report still belongs to \p Site (counted
/// and deduplicated there).
void reportHost(const SiteInfo &Site, const char *WhatFailed,
                const std::string &Values, const SiteInfo &RelatedSite,
                const char *RelatedRole);

/// "FILE:LINE:COL" of \p Site, for messages that mention a site in
/// \p Values.
std::string formatLocation(const SiteInfo &Site);

} // namespace rt
} // namespace gpuguard

#endif // GPUGUARD_REPORT_H
