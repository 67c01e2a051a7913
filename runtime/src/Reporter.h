//===- Reporter.h - The host reporter's internal interface ----------------===//
///
/// \file
/// Internals of the host reporter shared by its parts and its unit tests:
/// options (Options.cpp), the site table registry (SiteRegistry.cpp), one
/// report per site, counts and the summary (Reporting.cpp), and the
/// allocation registry (AllocationRegistry.cpp); the CUDA host side builds
/// on them. Nothing here depends on CUDA.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_RUNTIME_REPORTER_H
#define GPUGUARD_RUNTIME_REPORTER_H

#include "gpuguard/rt.h"

#include <functional>
#include <string>
#include <vector>

namespace gpuguard {
namespace rt {
namespace detail {

//===--- Options (Options.cpp) --------------------------------------------===//

/// GPUGUARD_OPTIONS, colon-separated key=value pairs in the UBSan style: the
/// flags of gpuguard/flags.def.
struct Options {
#define GPUGUARD_FLAG(Type, Name, Member, Default, Expected)                   \
  Type Member = Default;
#include "gpuguard/flags.def"
};

/// Parses \p Text (may be null). Each unknown key or unusable value adds one
/// line to \p Warnings and is otherwise ignored.
Options parseOptions(const char *Text, std::vector<std::string> &Warnings);

/// The options of this run, read from the environment on first use.
const Options &options();

//===--- Reporting (Reporting.cpp) ----------------------------------------===//

/// Reads the options and installs the exit handlers that print the summary,
/// once; the first registration or report does it anyway.
void startReporter();

/// A failure to report at a site.
struct Failure {
  SiteRef Ref = {0, 0};
  /// The site's table entry, or null when its table was never registered.
  const SiteInfo *Site = nullptr;
  std::string What;
  std::string Values;
  /// Device sites: where in the grid the check failed.
  bool HasCoordinates = false;
  unsigned Block[3] = {0, 0, 0};
  unsigned Thread[3] = {0, 0, 0};
  /// A second site the report names ("<RelatedRole> at FILE:LINE:COL").
  const SiteInfo *Related = nullptr;
  std::string RelatedRole;
  /// Lines printed under the headline, indented, when it is printed.
  std::vector<std::string> Details;
};

/// Prints \p Lines as they are, counting nothing: notices that are no
/// site's failure.
void emitLines(const std::vector<std::string> &Lines);

/// Counts the failure at its site and prints it if it is the site's first
/// and max_reports allows; aborts afterwards when halt_on_error=1.
void reportFailure(const Failure &F);

/// Where a record was made. A device check compiled as host code (in a
/// `__host__ __device__` function, or a host build) runs in no grid, and its
/// report names the function, not a block and thread.
enum class RecordOrigin { Host, Device };

/// Turns a record into a failure (message by the site's kind) and reports it.
/// A record marked Tallied is printed but not counted: its site's device
/// tally counts it (addSiteOccurrences).
void reportRecord(const Record &R, RecordOrigin Origin);

/// Counts \p Count more failures at \p Ref without printing anything: what
/// a device site tally counted beyond its records.
void addSiteOccurrences(SiteRef Ref, unsigned long long Count);

/// Whether a site of \p Kind runs on the device (site_kinds.def).
bool isDeviceKind(unsigned Kind);

/// The headline of a failure at a CUDA site of \p Kind (site_kinds.def)
/// whose operand is \p What (may be null or empty).
std::string kindMessage(unsigned Kind, const char *What);

/// Counts records a device buffer had no room for.
void addDroppedRecords(unsigned long long Count);

/// Formats a record's value by its tag ("42", "-1", "nan", "1.5").
std::string formatValue(unsigned long long Bits, unsigned char Tag);

struct Totals {
  unsigned long long Errors = 0;  ///< failures, counted at every occurrence
  unsigned long long Sites = 0;   ///< distinct sites that failed
  unsigned long long Printed = 0; ///< sites whose report was printed
  unsigned long long Dropped = 0; ///< device records lost to a full buffer
};
Totals totals();

/// How often \p Ref failed so far.
unsigned long long occurrences(SiteRef Ref);

/// "SUMMARY: gpuguard: ..." or empty when nothing failed.
std::string summaryLine();

/// Called by drain() and at exit to drain device buffers; \p AtExit is true
/// for the last call. Set by the CUDA host side when it is linked in.
void setDeviceDrainHook(void (*Hook)(bool AtExit));

//===--- Site table registry (SiteRegistry.cpp) ---------------------------===//

/// The registered table entry of \p Ref, or null.
const SiteInfo *lookupSite(SiteRef Ref);

/// The reference of \p Site: its table's key and index when its table was
/// registered, else its address and an index no table uses.
SiteRef refOfSite(const SiteInfo &Site);

//===--- Allocation registry (AllocationRegistry.cpp) ---------------------===//

/// The allocation table for the device, sorted by Base: live allocations
/// and the memory freed since the last quiesceAllocations(), overlapping
/// ranges merged; and a number that changes whenever the table does.
void snapshotAllocations(std::vector<AllocationEntry> &Entries,
                         unsigned long long &Generation);
unsigned long long allocationGeneration();
/// No kernel runs: freed memory leaves the device's table at the next push.
void quiesceAllocations();
/// Tests only: forgets every allocation (part of resetForTesting).
void resetAllocationsForTesting();

/// Where a wrapped allocation was made.
struct AllocationOrigin {
  const char *Allocator = nullptr; ///< `cudaMalloc`, ...; null if unknown
  const char *File = nullptr;      ///< the call's file; null if unknown
  unsigned Line = 0;
};
struct LiveAllocation {
  unsigned long long Base = 0, Bytes = 0;
  AllocationOrigin Origin;
};
/// The allocations the CUDA wrappers made that are still live, by base
/// (not those registered by hand, with no allocator named).
std::vector<LiveAllocation> liveAllocations();
/// The device was reset: its wrapped allocations are gone.
void forgetWrappedAllocations();
/// \p Live grouped by origin, largest total first, one line per group
/// ("8388608 bytes (8.0 MiB) in 2 allocations by cudaMalloc at f.cu:42"),
/// at most \p MaxGroups lines and a line for the rest.
std::vector<std::string>
describeLiveAllocations(const std::vector<LiveAllocation> &Live,
                        unsigned MaxGroups);
/// "3 allocation(s), 12582912 bytes (12.0 MiB)": how much \p Live holds.
std::string describeLiveTotal(const std::vector<LiveAllocation> &Live);
/// "12582912 bytes (12.0 MiB)".
std::string formatBytes(unsigned long long Bytes);
/// Prints the live allocations (nothing when none is live and
/// \p SayWhenNone is false); not counted as a failure.
void printLiveAllocations(bool SayWhenNone);

//===--- Tests ------------------------------------------------------------===//

/// Tests only: forgets every count, report and allocation, uses \p O, and
/// sends each output line to \p Sink (or to the log when it is empty).
void resetForTesting(const Options &O,
                     std::function<void(const std::string &)> Sink);

/// Tests only: \p Observer sees every record made on the host before it is
/// reported (or nothing, when empty).
void observeRecordsForTesting(std::function<void(const Record &)> Observer);

} // namespace detail
} // namespace rt
} // namespace gpuguard

#endif // GPUGUARD_RUNTIME_REPORTER_H
