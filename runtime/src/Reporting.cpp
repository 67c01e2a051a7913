//===- Reporting.cpp - The host reporter ----------------------------------===//
///
/// \file
/// Receives failures from host checks, from records made on the host and from
/// records drained out of device buffers; reports each site once (up to
/// max_reports sites), counts every occurrence, and prints a summary at exit.
/// One mutex guards all of it: failures are rare, and a report must never be
/// interleaved with another. A record's report is worded by its site's kind
/// (gpuguard/site_kinds.def).
///
//===----------------------------------------------------------------------===//

#include "Reporter.h"

#include "gpuguard/report.h"

#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
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

struct SiteState {
  unsigned long long Count = 0;
  /// A failure with its values reached the reporter (a device tally can
  /// count a site before its record arrives).
  bool Reported = false;
};

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

  void report(const Failure &F, unsigned long long Occurrences) {
    std::unique_lock<std::mutex> Lock(Mutex);
    SiteState &S = Sites[SiteKey{F.Ref.FileKey, F.Ref.Index}];
    S.Count += Occurrences;
    Errors += Occurrences;
    if (!S.Reported) {
      S.Reported = true;
      if (Printed < Opts.MaxReports) {
        ++Printed;
        emitLocked(formatFailure(F));
        for (const std::string &Detail : F.Details)
          emitLocked("  " + Detail);
      } else {
        ++NotPrinted;
      }
    }
    if (Opts.HaltOnError) {
      flushLocked();
      std::abort();
    }
  }

  void addOccurrences(SiteRef Ref, unsigned long long Count) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Sites[SiteKey{Ref.FileKey, Ref.Index}].Count += Count;
    Errors += Count;
  }

  /// Prints \p Lines as they are, counting nothing.
  void emitLines(const std::vector<std::string> &Lines) {
    std::lock_guard<std::mutex> Lock(Mutex);
    for (const std::string &Line : Lines)
      emitLocked(Line);
    flushLocked();
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

  void reset(const Options &O, std::function<void(const std::string &)> S) {
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      Opts = O;
      Sink = std::move(S);
      Sites.clear();
      Errors = Printed = NotPrinted = Dropped = 0;
      if (Out && Out != stderr)
        std::fclose(Out);
      Out = nullptr;
    }
    resetAllocationsForTesting();
  }

private:
  void atExit() {
    // Once: std::terminate may run while atexit handlers do.
    if (ExitReported.exchange(true))
      return;
    drainDevice(/*AtExit=*/true);
    if (Opts.ReportLeaks)
      printLiveAllocations(/*SayWhenNone=*/false);
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Opts.PrintSummary && Errors > 0)
      emitLocked(summaryLocked());
    flushLocked();
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
    if (NotPrinted > 0)
      Line += "; " + std::to_string(NotPrinted) +
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
  std::map<SiteKey, SiteState> Sites;
  unsigned long long Errors = 0, Printed = 0, NotPrinted = 0, Dropped = 0;
  std::FILE *Out = nullptr;
  std::function<void(const std::string &)> Sink;
  void (*DeviceDrainHook)(bool) = nullptr;
};

ReporterState &state() { return ReporterState::state(); }

std::function<void(const Record &)> RecordObserver;

enum class SiteSide { CudaDevice, CudaHost, TorchHost };

/// What site_kinds.def says about one kind.
struct KindText {
  unsigned Kind;
  bool OnDevice;
  const char *Message;
  const char *Values;
};

constexpr KindText KindTexts[] = {
#define GPUGUARD_SITE_KIND(Name, Value, Side, EntryPoint, Message, Values)     \
  {Value, SiteSide::Side == SiteSide::CudaDevice, Message, Values},
#include "gpuguard/site_kinds.def"
};

const KindText *kindText(unsigned Kind) {
  for (const KindText &Text : KindTexts)
    if (Text.Kind == Kind)
      return &Text;
  return nullptr;
}

/// A record's values by the Values text of its kind: `%0` and `%1` are
/// the two values.
std::string kindValues(unsigned Kind, const std::string &Value0,
                       const std::string &Value1) {
  const KindText *Text = kindText(Kind);
  std::string Out;
  for (const char *C = Text ? Text->Values : ""; *C; ++C) {
    if (C[0] == '%' && (C[1] == '0' || C[1] == '1')) {
      Out += *++C == '0' ? Value0 : Value1;
      continue;
    }
    Out += *C;
  }
  return Out;
}

} // namespace

bool isDeviceKind(unsigned Kind) {
  const KindText *Text = kindText(Kind);
  return Text && Text->OnDevice;
}

std::string kindMessage(unsigned Kind, const char *What) {
  const KindText *Text = kindText(Kind);
  bool NamesOperand = What && *What;
  bool InOperandPart = false;
  std::string Out;
  for (const char *C = Text ? Text->Message : ""; *C; ++C) {
    if (*C == '[' || *C == ']') {
      InOperandPart = *C == '[';
      continue;
    }
    if (InOperandPart && !NamesOperand)
      continue;
    if (C[0] == '%' && C[1] == 'w') {
      Out += std::string("'") + What + "'";
      ++C;
      continue;
    }
    Out += *C;
  }
  return Out;
}

void startReporter() { state(); }

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

void reportFailure(const Failure &F) { state().report(F, 1); }

void reportRecord(const Record &R, RecordOrigin Origin) {
  Failure F;
  F.Ref = SiteRef{R.FileKey, R.Index};
  F.Site = lookupSite(F.Ref);
  unsigned Kind = F.Site ? F.Site->Kind : 0;
  const char *What = F.Site ? F.Site->What : nullptr;
  std::string Value0 = formatValue(R.Values[0], R.Tags[0]);
  std::string Value1 = formatValue(R.Values[1], R.Tags[1]);
  if (isDeviceKind(Kind)) {
    F.What = kindMessage(Kind, What);
    F.Values = kindValues(Kind, Value0, Value1);
  } else {
    F.What = "check failed";
    F.Values = Value0;
    if (R.Tags[1] != NoValue)
      F.Values += ", " + Value1;
  }
  F.HasCoordinates = Origin == RecordOrigin::Device;
  for (unsigned Axis = 0; Axis < 3; ++Axis) {
    F.Block[Axis] = R.Block[Axis];
    F.Thread[Axis] = R.Thread[Axis];
  }
  // A tallied record's failures arrive with its site's tally.
  state().report(F, R.Tallied ? 0 : 1);
}

void addSiteOccurrences(SiteRef Ref, unsigned long long Count) {
  state().addOccurrences(Ref, Count);
}

void addDroppedRecords(unsigned long long Count) { state().addDropped(Count); }

Totals totals() { return state().totals(); }

unsigned long long occurrences(SiteRef Ref) { return state().occurrences(Ref); }

std::string summaryLine() { return state().summary(); }

void printLiveAllocations(bool SayWhenNone) {
  std::vector<LiveAllocation> Live = liveAllocations();
  std::vector<std::string> Lines;
  if (Live.empty()) {
    if (!SayWhenNone)
      return;
    Lines.push_back("gpuguard: no device memory allocated through the CUDA "
                    "wrappers is live");
  } else {
    Lines.push_back("gpuguard: device memory still allocated: " +
                    describeLiveTotal(Live) + " [cuda-device-memory-leak]");
    for (const std::string &Group : describeLiveAllocations(Live, 20))
      Lines.push_back("  " + Group);
  }
  state().emitLines(Lines);
}

void emitLines(const std::vector<std::string> &Lines) {
  startReporter();
  state().emitLines(Lines);
}

void setDeviceDrainHook(void (*Hook)(bool AtExit)) {
  state().setDeviceDrainHook(Hook);
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
  reportRecord(R, RecordOrigin::Host);
}

} // namespace detail

//===----------------------------------------------------------------------===//
// Entry points of report.h
//===----------------------------------------------------------------------===//

void reportHost(const SiteInfo &Site, const char *WhatFailed,
                const std::string &Values) {
  detail::Failure F;
  F.Site = &Site;
  F.Ref = detail::refOfSite(Site);
  F.What = WhatFailed ? WhatFailed : "check failed";
  F.Values = Values;
  detail::reportFailure(F);
}

void reportHost(const SiteInfo &Site, const char *WhatFailed,
                const std::string &Values, const SiteInfo &RelatedSite,
                const char *RelatedRole) {
  detail::Failure F;
  F.Site = &Site;
  F.Ref = detail::refOfSite(Site);
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

void reportLiveAllocations() {
  detail::startReporter();
  detail::printLiveAllocations(/*SayWhenNone=*/true);
}

} // namespace rt
} // namespace gpuguard
