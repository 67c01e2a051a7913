//===- Reporter.cpp - The host reporter -----------------------------------===//
///
/// \file
/// Receives failures from host checks, from records made on the host and from
/// records drained out of device buffers; reports each site once (up to
/// max_reports sites), counts every occurrence, and prints a summary at exit.
/// One mutex guards all of it: failures are rare, and a report must never be
/// interleaved with another.
///
//===----------------------------------------------------------------------===//

#include "Reporter.h"

#include "gpuguard/report.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <tuple>
#include <unistd.h>

namespace gpuguard {
namespace rt {
namespace detail {
namespace {

struct SiteKey {
  unsigned long long FileKey;
  unsigned Index;
  bool operator<(const SiteKey &Other) const {
    return std::tie(FileKey, Index) < std::tie(Other.FileKey, Other.Index);
  }
};

/// Sites whose table was never registered (a SiteInfo made by hand) are
/// keyed by their address and this index.
constexpr unsigned UnregisteredIndex = ~0u;

struct SiteState {
  unsigned long long Count = 0;
};

struct SiteTable {
  unsigned long long FileKey;
  const SiteInfo *Sites;
  unsigned Count;
};

bool parseFlag(const std::string &Value, bool &Out) {
  if (Value == "0" || Value == "false") {
    Out = false;
    return true;
  }
  if (Value == "1" || Value == "true") {
    Out = true;
    return true;
  }
  return false;
}

bool parseCount(const std::string &Value, unsigned &Out) {
  if (Value.empty() ||
      Value.find_first_not_of("0123456789") != std::string::npos)
    return false;
  errno = 0;
  unsigned long long Parsed = std::strtoull(Value.c_str(), nullptr, 10);
  if (errno != 0 || Parsed > ~0u)
    return false;
  Out = static_cast<unsigned>(Parsed);
  return true;
}

class ReporterState {
public:
  ReporterState() {
    std::vector<std::string> Warnings;
    Opts = parseOptions(std::getenv("GPUGUARD_OPTIONS"), Warnings);
    for (const std::string &W : Warnings)
      std::fprintf(stderr, "%s\n", W.c_str());
    // Registered after the C++ runtime is up and, in practice, before the
    // CUDA runtime registers its own teardown: the summary comes last.
    std::atexit([] { state().atExit(); });
    // An uncaught exception (PyTorch's own error, after gpuguard reported
    // its cause) ends the process without running atexit handlers: say the
    // summary first, then let the previous handler abort as it would have.
    PreviousTerminate = std::set_terminate([] {
      state().atExit();
      if (PreviousTerminate)
        PreviousTerminate();
      std::abort();
    });
  }

  static ReporterState &state() {
    // Never destroyed: instrumented code may still report from other
    // threads or static destructors while the process exits.
    static ReporterState *Instance = new ReporterState();
    return *Instance;
  }

  const Options &options() const { return Opts; }

  void registerTable(unsigned long long FileKey, const SiteInfo *Sites,
                     unsigned Count) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Tables.insert({FileKey, SiteTable{FileKey, Sites, Count}});
    AllTables.push_back(SiteTable{FileKey, Sites, Count});
  }

  const SiteInfo *lookupSite(SiteRef Ref) {
    std::lock_guard<std::mutex> Lock(Mutex);
    return lookupSiteLocked(Ref);
  }

  SiteRef refOf(const SiteInfo &Site) {
    std::lock_guard<std::mutex> Lock(Mutex);
    for (const SiteTable &T : AllTables)
      if (&Site >= T.Sites && &Site < T.Sites + T.Count)
        return SiteRef{T.FileKey, static_cast<unsigned>(&Site - T.Sites)};
    return SiteRef{reinterpret_cast<std::uintptr_t>(&Site), UnregisteredIndex};
  }

  void report(const Failure &F) {
    std::unique_lock<std::mutex> Lock(Mutex);
    SiteState &S = Sites[SiteKey{F.Ref.FileKey, F.Ref.Index}];
    ++S.Count;
    ++Errors;
    if (S.Count == 1 && Printed < Opts.MaxReports) {
      ++Printed;
      emitLocked(formatFailure(F));
    }
    if (Opts.HaltOnError) {
      flushLocked();
      std::abort();
    }
  }

  void addDropped(unsigned long long Count) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Dropped += Count;
  }

  Totals totals() {
    std::lock_guard<std::mutex> Lock(Mutex);
    Totals T;
    T.Errors = Errors;
    T.Sites = Sites.size();
    T.Printed = Printed;
    T.Dropped = Dropped;
    return T;
  }

  unsigned long long occurrences(SiteRef Ref) {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Sites.find(SiteKey{Ref.FileKey, Ref.Index});
    return It == Sites.end() ? 0 : It->second.Count;
  }

  std::string summary() {
    std::lock_guard<std::mutex> Lock(Mutex);
    return summaryLocked();
  }

  void setDeviceDrainHook(void (*Hook)(bool)) {
    std::lock_guard<std::mutex> Lock(Mutex);
    DeviceDrainHook = Hook;
  }

  void drainDevice(bool AtExit) {
    void (*Hook)(bool);
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      Hook = DeviceDrainHook;
    }
    // Outside the lock: the hook reports what it drains.
    if (Hook)
      Hook(AtExit);
  }

  //===--- Allocation registry --------------------------------------------===//

  void registerAllocation(unsigned long long Base, unsigned long long Bytes) {
    std::unique_lock<std::shared_mutex> Lock(AllocationMutex);
    Allocations[Base] = Bytes;
    ++AllocationGeneration;
  }

  void unregisterAllocation(unsigned long long Base) {
    std::unique_lock<std::shared_mutex> Lock(AllocationMutex);
    auto It = Allocations.find(Base);
    if (It == Allocations.end())
      return;
    retireLocked(It->first, It->second);
    Allocations.erase(It);
    ++AllocationGeneration;
  }

  /// No kernel runs any more (a device-wide synchronisation succeeded):
  /// retired memory no longer needs covering.
  void quiesce() {
    std::unique_lock<std::shared_mutex> Lock(AllocationMutex);
    if (Retired.empty())
      return;
    Retired.clear();
    ++AllocationGeneration;
  }

  /// Borrowed memory (tensors' storages): registered in place of the
  /// borrowed entries it overlaps, never over a wrapped allocation.
  void registerBorrowed(unsigned long long Base, unsigned long long Bytes,
                        std::unique_ptr<BorrowedMemory> Owner) {
    std::unique_lock<std::shared_mutex> Lock(AllocationMutex);
    pruneBorrowedLocked();
    unsigned long long End = Base + Bytes;
    if (overlapsLocked(Allocations, Base, End))
      return;
    // The same storage registered again (one per launch of a training
    // step): nothing changes, so nothing is pushed to the device.
    if (auto It = Borrowed.find(Base);
        It != Borrowed.end() && It->second.Bytes == Bytes)
      return;
    for (auto It = Borrowed.begin(); It != Borrowed.end();) {
      if (It->first < End && Base < It->first + It->second.Bytes) {
        retireLocked(It->first, It->second.Bytes);
        It = Borrowed.erase(It);
      } else {
        ++It;
      }
    }
    Borrowed[Base] = BorrowedEntry{Bytes, std::move(Owner)};
    ++AllocationGeneration;
  }

  bool pruneBorrowed() {
    std::unique_lock<std::shared_mutex> Lock(AllocationMutex);
    return pruneBorrowedLocked();
  }

  bool findAllocation(unsigned long long Address, AllocationEntry &Found) {
    std::shared_lock<std::shared_mutex> Lock(AllocationMutex);
    return findIn(Allocations, Address, Found) ||
           findIn(Borrowed, Address, Found);
  }

  /// The table for the device: live and retired memory, sorted by Base, with
  /// overlapping ranges merged into one. A kernel launched before memory
  /// was freed (or reused with another size) may still run while the table
  /// is replaced, so a range only grows until no kernel can run any more:
  /// an access is then checked against at least its own allocation.
  void snapshotAllocations(std::vector<AllocationEntry> &Entries,
                           unsigned long long &Generation) {
    std::shared_lock<std::shared_mutex> Lock(AllocationMutex);
    Entries.clear();
    Entries.reserve(Allocations.size() + Borrowed.size() + Retired.size());
    for (const auto &[Base, Bytes] : Allocations)
      Entries.push_back(AllocationEntry{Base, Bytes});
    for (const auto &[Base, Entry] : Borrowed)
      Entries.push_back(AllocationEntry{Base, Entry.Bytes});
    for (const auto &[Base, Bytes] : Retired)
      Entries.push_back(AllocationEntry{Base, Bytes});
    mergeOverlapping(Entries);
    Generation = AllocationGeneration;
  }

  unsigned long long allocationGeneration() {
    std::shared_lock<std::shared_mutex> Lock(AllocationMutex);
    return AllocationGeneration;
  }

  void reset(const Options &O, std::function<void(const std::string &)> S) {
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      Opts = O;
      Sink = std::move(S);
      Sites.clear();
      Errors = Printed = Dropped = 0;
      if (Out && Out != stderr)
        std::fclose(Out);
      Out = nullptr;
    }
    std::unique_lock<std::shared_mutex> Lock(AllocationMutex);
    Allocations.clear();
    Borrowed.clear();
    Retired.clear();
    ++AllocationGeneration;
  }

private:
  struct BorrowedEntry {
    unsigned long long Bytes = 0;
    std::unique_ptr<BorrowedMemory> Owner;
  };

  static unsigned long long bytesOf(unsigned long long Bytes) { return Bytes; }
  static unsigned long long bytesOf(const BorrowedEntry &Entry) {
    return Entry.Bytes;
  }

  template <class Map>
  static bool findIn(const Map &Entries, unsigned long long Address,
                     AllocationEntry &Found) {
    auto It = Entries.upper_bound(Address);
    if (It == Entries.begin())
      return false;
    --It;
    if (Address - It->first >= bytesOf(It->second))
      return false;
    Found = AllocationEntry{It->first, bytesOf(It->second)};
    return true;
  }

  template <class Map>
  static bool overlapsLocked(const Map &Entries, unsigned long long Begin,
                             unsigned long long End) {
    auto It = Entries.lower_bound(End);
    if (It == Entries.begin())
      return false;
    --It;
    return It->first + bytesOf(It->second) > Begin;
  }

  /// Sorts \p Entries by Base (the device binary-searches them) and merges
  /// overlapping ranges; ranges that only touch stay apart.
  static void mergeOverlapping(std::vector<AllocationEntry> &Entries) {
    std::sort(Entries.begin(), Entries.end(),
              [](const AllocationEntry &A, const AllocationEntry &B) {
                return A.Base < B.Base;
              });
    size_t Kept = 0;
    for (const AllocationEntry &E : Entries) {
      if (Kept && E.Base < Entries[Kept - 1].Base + Entries[Kept - 1].Bytes) {
        AllocationEntry &Last = Entries[Kept - 1];
        Last.Bytes =
            std::max(Last.Base + Last.Bytes, E.Base + E.Bytes) - Last.Base;
        continue;
      }
      Entries[Kept++] = E;
    }
    Entries.resize(Kept);
  }

  /// Memory that left the registry while kernels may still use it, merged
  /// with the retired ranges it overlaps so that the map stays small.
  void retireLocked(unsigned long long Base, unsigned long long Bytes) {
    unsigned long long End = Base + Bytes;
    auto It = Retired.lower_bound(Base);
    if (It != Retired.begin() &&
        std::prev(It)->first + std::prev(It)->second > Base)
      --It;
    while (It != Retired.end() && It->first < End) {
      Base = std::min(Base, It->first);
      End = std::max(End, It->first + It->second);
      It = Retired.erase(It);
    }
    Retired[Base] = End - Base;
  }

  bool pruneBorrowedLocked() {
    bool Changed = false;
    for (auto It = Borrowed.begin(); It != Borrowed.end();) {
      if (It->second.Owner && It->second.Owner->alive()) {
        ++It;
        continue;
      }
      retireLocked(It->first, It->second.Bytes);
      It = Borrowed.erase(It);
      Changed = true;
    }
    if (Changed)
      ++AllocationGeneration;
    return Changed;
  }

  void atExit() {
    // Once: std::terminate may run while atexit handlers do.
    if (ExitReported.exchange(true))
      return;
    drainDevice(/*AtExit=*/true);
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Opts.PrintSummary && Errors > 0)
      emitLocked(summaryLocked());
    flushLocked();
  }

  const SiteInfo *lookupSiteLocked(SiteRef Ref) const {
    auto It = Tables.find(Ref.FileKey);
    if (It == Tables.end() || Ref.Index >= It->second.Count)
      return nullptr;
    return &It->second.Sites[Ref.Index];
  }

  std::string summaryLocked() const {
    if (Errors == 0)
      return std::string();
    std::string Line = "SUMMARY: gpuguard: " + std::to_string(Errors) +
                       " runtime error(s) at " + std::to_string(Sites.size()) +
                       " site(s)";
    if (Dropped > 0)
      Line += "; " + std::to_string(Dropped) +
              " record(s) dropped (device buffer full)";
    if (Sites.size() > Printed)
      Line += "; " + std::to_string(Sites.size() - Printed) +
              " site(s) not printed (max_reports=" +
              std::to_string(Opts.MaxReports) + ")";
    return Line;
  }

  std::string formatFailure(const Failure &F) const {
    std::string Line;
    if (F.Site) {
      Line = formatLocation(*F.Site);
    } else {
      char Unknown[64];
      std::snprintf(Unknown, sizeof(Unknown), "<unknown site 0x%llx#%u>",
                    F.Ref.FileKey, F.Ref.Index);
      Line = Unknown;
    }
    Line += ": runtime error: " + F.What;
    if (!F.Values.empty())
      Line += " (" + F.Values + ")";
    const char *Function = F.Site && F.Site->Function ? F.Site->Function : "";
    if (F.HasCoordinates) {
      char Grid[128];
      std::snprintf(Grid, sizeof(Grid), ", block (%u,%u,%u) thread (%u,%u,%u)",
                    F.Block[0], F.Block[1], F.Block[2], F.Thread[0],
                    F.Thread[1], F.Thread[2]);
      Line += std::string(" in kernel ") + (*Function ? Function : "?") + Grid;
    } else if (*Function) {
      Line += std::string(" in ") + Function;
    }
    if (F.Related)
      Line += ", " + F.RelatedRole + " at " + formatLocation(*F.Related);
    Line += " [";
    Line += F.Site && F.Site->Check ? F.Site->Check : "gpuguard";
    Line += "]";
    return Line;
  }

  void emitLocked(const std::string &Line) {
    if (Sink) {
      Sink(Line);
      return;
    }
    std::FILE *Stream = outputLocked();
    std::fputs(Line.c_str(), Stream);
    std::fputc('\n', Stream);
    std::fflush(Stream);
  }

  void flushLocked() {
    if (Out)
      std::fflush(Out);
    std::fflush(stderr);
  }

  std::FILE *outputLocked() {
    if (Out)
      return Out;
    Out = stderr;
    if (!Opts.LogPath.empty() && Opts.LogPath != "stderr") {
      // Like UBSan: one file per process, so that children do not mix.
      std::string Path = Opts.LogPath + "." + std::to_string(::getpid());
      if (std::FILE *File = std::fopen(Path.c_str(), "a"))
        Out = File;
      else
        std::fprintf(stderr,
                     "gpuguard: cannot open log_path file '%s' (%s); "
                     "reporting to stderr\n",
                     Path.c_str(), std::strerror(errno));
    }
    return Out;
  }

  static inline std::terminate_handler PreviousTerminate = nullptr;
  std::atomic<bool> ExitReported{false};
  std::mutex Mutex;
  Options Opts;
  std::map<unsigned long long, SiteTable> Tables;
  std::vector<SiteTable> AllTables;
  std::map<SiteKey, SiteState> Sites;
  unsigned long long Errors = 0, Printed = 0, Dropped = 0;
  std::FILE *Out = nullptr;
  std::function<void(const std::string &)> Sink;
  void (*DeviceDrainHook)(bool) = nullptr;

  std::shared_mutex AllocationMutex;
  std::map<unsigned long long, unsigned long long> Allocations;
  std::map<unsigned long long, BorrowedEntry> Borrowed;
  /// Freed or replaced ranges that kernels still running may use; emptied
  /// by quiesce().
  std::map<unsigned long long, unsigned long long> Retired;
  unsigned long long AllocationGeneration = 0;
};

ReporterState &state() { return ReporterState::state(); }

std::function<void(const Record &)> RecordObserver;

std::string quoted(const char *What) {
  if (!What || !*What)
    return std::string();
  return std::string(" '") + What + "'";
}

bool isDeviceKind(unsigned Kind) {
  return Kind == IndexBound || Kind == PointerBound || Kind == NonZeroDivisor ||
         Kind == FiniteBeforeCast;
}

} // namespace

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

Options parseOptions(const char *Text, std::vector<std::string> &Warnings) {
  Options O;
  if (!Text)
    return O;
  std::string All(Text);
  size_t Start = 0;
  while (Start <= All.size()) {
    size_t End = All.find(':', Start);
    if (End == std::string::npos)
      End = All.size();
    std::string Item = All.substr(Start, End - Start);
    Start = End + 1;
    if (Item.empty())
      continue;
    size_t Equals = Item.find('=');
    std::string Key = Item.substr(0, Equals);
    std::string Value =
        Equals == std::string::npos ? std::string() : Item.substr(Equals + 1);
    auto Bad = [&](const char *Expected) {
      Warnings.push_back("gpuguard: ignoring GPUGUARD_OPTIONS entry '" + Item +
                         "': " + Expected);
    };
    if (Key == "halt_on_error") {
      if (!parseFlag(Value, O.HaltOnError))
        Bad("expected halt_on_error=0 or halt_on_error=1");
    } else if (Key == "print_summary") {
      if (!parseFlag(Value, O.PrintSummary))
        Bad("expected print_summary=0 or print_summary=1");
    } else if (Key == "max_reports") {
      if (!parseCount(Value, O.MaxReports))
        Bad("expected a number of reports, e.g. max_reports=20");
    } else if (Key == "log_path") {
      if (Value.empty())
        Bad("expected a file path prefix or log_path=stderr");
      else
        O.LogPath = Value;
    } else {
      Bad("unknown option (known: halt_on_error, max_reports, log_path, "
          "print_summary)");
    }
  }
  return O;
}

const Options &options() { return state().options(); }

//===----------------------------------------------------------------------===//
// Reporting
//===----------------------------------------------------------------------===//

std::string formatValue(unsigned long long Bits, unsigned char Tag) {
  switch (Tag) {
  case SignedValue:
    return std::to_string(static_cast<long long>(Bits));
  case UnsignedValue:
    return std::to_string(Bits);
  case FloatValue: {
    double Value = doubleOfBits(Bits);
    if (std::isnan(Value))
      return "nan";
    if (std::isinf(Value))
      return Value < 0 ? "-inf" : "inf";
    char Text[32];
    std::snprintf(Text, sizeof(Text), "%g", Value);
    return Text;
  }
  default:
    return "?";
  }
}

void reportFailure(const Failure &F) { state().report(F); }

void reportRecord(const Record &R) {
  Failure F;
  F.Ref = SiteRef{R.FileKey, R.Index};
  F.Site = state().lookupSite(F.Ref);
  unsigned Kind = F.Site ? F.Site->Kind : 0;
  const char *What = F.Site ? F.Site->What : nullptr;
  std::string Value0 = formatValue(R.Values[0], R.Tags[0]);
  std::string Value1 = formatValue(R.Values[1], R.Tags[1]);
  switch (Kind) {
  case IndexBound:
    F.What = "index" + quoted(What) + " out of bounds";
    F.Values = "index " + Value0 + ", bound " + Value1;
    break;
  case PointerBound:
    F.What = "index" + quoted(What) + " outside its allocation";
    F.Values = "index " + Value0 + ", extent " + Value1 + " elements";
    break;
  case NonZeroDivisor:
    F.What = "division by zero" + (What && *What ? " in" + quoted(What) : "");
    F.Values = "divisor " + Value0;
    break;
  case FiniteBeforeCast:
    F.What = "non-finite value" + quoted(What) + " before an integer cast";
    F.Values = "value " + Value0;
    break;
  default:
    F.What = "check failed";
    F.Values = Value0;
    if (R.Tags[1] != NoValue)
      F.Values += ", " + Value1;
    break;
  }
  F.HasCoordinates = !F.Site || isDeviceKind(Kind);
  for (unsigned Axis = 0; Axis < 3; ++Axis) {
    F.Block[Axis] = R.Block[Axis];
    F.Thread[Axis] = R.Thread[Axis];
  }
  reportFailure(F);
}

const SiteInfo *lookupSite(SiteRef Ref) { return state().lookupSite(Ref); }

void addDroppedRecords(unsigned long long Count) { state().addDropped(Count); }

Totals totals() { return state().totals(); }

unsigned long long occurrences(SiteRef Ref) { return state().occurrences(Ref); }

std::string summaryLine() { return state().summary(); }

void setDeviceDrainHook(void (*Hook)(bool AtExit)) {
  state().setDeviceDrainHook(Hook);
}

void snapshotAllocations(std::vector<AllocationEntry> &Entries,
                         unsigned long long &Generation) {
  state().snapshotAllocations(Entries, Generation);
}

void registerBorrowedAllocation(const void *Base, unsigned long long Bytes,
                                BorrowedMemory *Owner) {
  state().registerBorrowed(reinterpret_cast<std::uintptr_t>(Base), Bytes,
                           std::unique_ptr<BorrowedMemory>(Owner));
}

bool pruneBorrowedAllocations() { return state().pruneBorrowed(); }

void quiesceAllocations() { state().quiesce(); }

unsigned long long allocationGeneration() {
  return state().allocationGeneration();
}

void resetForTesting(const Options &O,
                     std::function<void(const std::string &)> Sink) {
  state().reset(O, std::move(Sink));
}

void observeRecordsForTesting(std::function<void(const Record &)> Observer) {
  RecordObserver = std::move(Observer);
}

//===----------------------------------------------------------------------===//
// Entry points of rt.h
//===----------------------------------------------------------------------===//

void submitRecord(const Record &R) {
  if (RecordObserver)
    RecordObserver(R);
  reportRecord(R);
}

bool findAllocation(const void *Address, AllocationEntry &Found) {
  return state().findAllocation(reinterpret_cast<std::uintptr_t>(Address),
                                Found);
}

void registerAllocation(const void *Base, unsigned long long Bytes) {
  if (Base && Bytes)
    state().registerAllocation(reinterpret_cast<std::uintptr_t>(Base), Bytes);
}

void unregisterAllocation(const void *Base) {
  if (Base)
    state().unregisterAllocation(reinterpret_cast<std::uintptr_t>(Base));
}

} // namespace detail

SiteTableRegistrar::SiteTableRegistrar(unsigned long long FileKey,
                                       const SiteInfo *Sites, unsigned Count) {
  detail::state().registerTable(FileKey, Sites, Count);
}

//===----------------------------------------------------------------------===//
// Entry points of report.h
//===----------------------------------------------------------------------===//

void reportHost(const SiteInfo &Site, const char *WhatFailed,
                const std::string &Values) {
  detail::Failure F;
  F.Site = &Site;
  F.Ref = detail::state().refOf(Site);
  F.What = WhatFailed ? WhatFailed : "check failed";
  F.Values = Values;
  detail::reportFailure(F);
}

void reportHost(const SiteInfo &Site, const char *WhatFailed,
                const std::string &Values, const SiteInfo &RelatedSite,
                const char *RelatedRole) {
  detail::Failure F;
  F.Site = &Site;
  F.Ref = detail::state().refOf(Site);
  F.What = WhatFailed ? WhatFailed : "check failed";
  F.Values = Values;
  F.Related = &RelatedSite;
  F.RelatedRole = RelatedRole ? RelatedRole : "related";
  detail::reportFailure(F);
}

std::string formatLocation(const SiteInfo &Site) {
  return std::string(Site.File ? Site.File : "<unknown>") + ":" +
         std::to_string(Site.Line) + ":" + std::to_string(Site.Column);
}

void drain() { detail::state().drainDevice(/*AtExit=*/false); }

} // namespace rt
} // namespace gpuguard
