//===--- Doctor.cpp - gpuguard doctor -------------------------------------===//

#include "Doctor/Doctor.h"
#include "Doctor/BinaryInspection.h"
#include "Doctor/Diagnosis.h"
#include "Doctor/DriverProbe.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <set>

using namespace llvm;

namespace gpuguard::doctor {

namespace {

constexpr const char *Usage =
    "usage: gpuguard doctor [--format=text|json] [--libcuda=PATH] "
    "[PROGRAM-OR-LIBRARY...]\n"
    "Says what the NVIDIA driver and GPUs of this machine are, what each "
    "program\nneeds (read from its file, never run), and what will fail "
    "and why.\n";

StringRef severityName(Verdict::SeverityType Severity) {
  switch (Severity) {
  case Verdict::Note:
    return "note";
  case Verdict::Warning:
    return "warning";
  case Verdict::Error:
    return "error";
  }
  return "";
}

bool hasError(const std::vector<Verdict> &Verdicts) {
  for (const Verdict &V : Verdicts)
    if (V.Severity == Verdict::Error)
      return true;
  return false;
}

std::string describeRuntime(const BinaryReport &Program) {
  std::string Version = Program.Runtime.Version
                            ? Program.Runtime.Version->str()
                            : std::string("of unknown version");
  switch (Program.Runtime.Kind) {
  case RuntimeLink::None:
    return "no CUDA runtime";
  case RuntimeLink::Dynamic:
    return "CUDA runtime " + Version + " (" + Program.Runtime.Library + ")";
  case RuntimeLink::Static:
    return "CUDA runtime " + Version + " (static)";
  }
  return "";
}

std::string describeCode(const BinaryReport &Program) {
  std::string Sass = listArchs(Program.Code, EmbeddedCode::Sass);
  std::string Ptx = listArchs(Program.Code, EmbeddedCode::Ptx);
  if (Sass.empty() && Ptx.empty())
    return "no GPU code";
  std::string Text = "GPU code: ";
  if (!Sass.empty())
    Text += Sass + " (SASS)";
  if (!Ptx.empty())
    Text += (Sass.empty() ? "" : "; ") + Ptx + " (PTX)";
  return Text;
}

json::Array verdictsJson(const std::vector<Verdict> &Verdicts) {
  json::Array Array;
  for (const Verdict &V : Verdicts) {
    json::Object Object{{"severity", severityName(V.Severity)},
                        {"code", V.Code},
                        {"message", V.Message}};
    if (V.Gpu >= 0)
      Object["gpu"] = V.Gpu;
    Array.push_back(std::move(Object));
  }
  return Array;
}

json::Value versionJson(const std::optional<CudaVersion> &Version) {
  if (!Version)
    return nullptr;
  return Version->str();
}

} // namespace

int runDoctor(int Argc, const char **Argv) {
  bool Json = false;
  std::string Library;
  std::vector<std::string> Programs;
  for (int I = 1; I < Argc; ++I) {
    StringRef Arg = Argv[I];
    if (Arg == "-h" || Arg == "--help") {
      outs() << Usage;
      return Healthy;
    }
    if (Arg.consume_front("--format=")) {
      if (Arg != "text" && Arg != "json") {
        errs() << "gpuguard doctor: error: unknown format '" << Arg
               << "'; use --format=text or --format=json\n";
        return DoctorUsageError;
      }
      Json = Arg == "json";
    } else if (Arg.consume_front("--libcuda=")) {
      Library = Arg.str();
    } else if (Arg.starts_with("-")) {
      errs() << "gpuguard doctor: error: unknown option '" << Arg
             << "'; see 'gpuguard doctor --help'\n";
      return DoctorUsageError;
    } else {
      Programs.push_back(Arg.str());
    }
  }

  DriverReport Driver = probeDriver(Library);
  std::vector<Verdict> Machine = diagnoseMachine(Driver);
  int Exit = hasError(Machine) && Programs.empty() ? WillFail : Healthy;

  struct Checked {
    std::optional<BinaryReport> Report;
    std::string ReadError;
    std::vector<Verdict> Verdicts;
  };
  std::vector<Checked> Results;
  unsigned CannotRun = 0;
  for (const std::string &Path : Programs) {
    Checked C;
    Expected<BinaryReport> Report = inspectBinary(Path);
    if (!Report) {
      C.ReadError = toString(Report.takeError());
      Exit = std::max(Exit, int(UnreadableInput));
    } else {
      C.Verdicts = diagnoseProgram(Driver, *Report);
      C.Report = std::move(*Report);
      if (hasError(C.Verdicts)) {
        ++CannotRun;
        Exit = std::max(Exit, int(WillFail));
      }
    }
    Results.push_back(std::move(C));
  }

  if (Json) {
    json::Array Gpus;
    for (const GpuInfo &Gpu : Driver.Gpus)
      Gpus.push_back(
          json::Object{{"index", Gpu.Index},
                       {"name", Gpu.Name},
                       {"compute_capability", std::to_string(Gpu.Major) + "." +
                                                  std::to_string(Gpu.Minor)}});
    json::Array ProgramsJson;
    for (size_t I = 0; I < Programs.size(); ++I) {
      const Checked &C = Results[I];
      json::Object Object{{"path", Programs[I]}};
      if (!C.Report) {
        Object["error"] = C.ReadError;
      } else {
        const BinaryReport &R = *C.Report;
        // Each architecture once, in order, whichever fat binary has it.
        std::set<unsigned> SassArchs, PtxArchs;
        for (const EmbeddedCode &Code : R.Code)
          (Code.Kind == EmbeddedCode::Sass ? SassArchs : PtxArchs)
              .insert(Code.Arch);
        json::Array Sass, Ptx;
        for (unsigned Arch : SassArchs)
          Sass.push_back(archName({EmbeddedCode::Sass, Arch}));
        for (unsigned Arch : PtxArchs)
          Ptx.push_back(archName({EmbeddedCode::Ptx, Arch}));
        Object["runtime"] = json::Object{
            {"kind", R.Runtime.Kind == RuntimeLink::Static    ? "static"
                     : R.Runtime.Kind == RuntimeLink::Dynamic ? "dynamic"
                                                              : "none"},
            {"version", versionJson(R.Runtime.Version)},
            {"library", R.Runtime.Library}};
        Object["sass"] = std::move(Sass);
        Object["ptx"] = std::move(Ptx);
        Object["toolkit_release"] = versionJson(R.ToolkitRelease);
        if (!R.TorchCudaLibrary.empty())
          Object["libtorch"] = json::Object{{"library", R.TorchCudaLibrary},
                                            {"path", R.TorchCudaPath},
                                            {"cuda", versionJson(R.TorchCuda)}};
        Object["verdicts"] = verdictsJson(C.Verdicts);
      }
      ProgramsJson.push_back(std::move(Object));
    }
    json::Object Root{
        {"driver", json::Object{{"library", Driver.Library},
                                {"loaded", Driver.Loaded},
                                {"load_error", Driver.LoadError},
                                {"supports_cuda", versionJson(Driver.Supports)},
                                {"kernel_module", Driver.KernelModule},
                                {"init_error", Driver.InitError}}},
        {"gpus", std::move(Gpus)},
        {"machine", verdictsJson(Machine)},
        {"programs", std::move(ProgramsJson)},
        {"exit_code", Exit}};
    outs() << formatv("{0:2}", json::Value(std::move(Root))) << "\n";
    return Exit;
  }

  // Text: the machine, then each program.
  if (Driver.Loaded) {
    outs() << "driver: " << Driver.Library;
    if (Driver.Supports)
      outs() << ", supports CUDA " << Driver.Supports->str();
    if (!Driver.KernelModule.empty())
      outs() << " (kernel module " << Driver.KernelModule << ")";
    outs() << "\n";
  }
  for (const GpuInfo &Gpu : Driver.Gpus)
    outs() << "GPU " << Gpu.Index << ": " << Gpu.Name << ", compute capability "
           << Gpu.Major << "." << Gpu.Minor << " (sm_" << Gpu.arch() << ")\n";
  // With programs, each says what the machine's problem means for it.
  if (Programs.empty())
    for (const Verdict &V : Machine)
      outs() << "machine: " << severityName(V.Severity) << ": " << V.Message
             << "\n";
  for (size_t I = 0; I < Programs.size(); ++I) {
    const Checked &C = Results[I];
    if (!C.Report) {
      errs() << "gpuguard doctor: error: " << C.ReadError << "\n";
      continue;
    }
    const BinaryReport &R = *C.Report;
    outs() << R.Path << ": " << describeRuntime(R) << "; " << describeCode(R);
    if (R.TorchCuda)
      outs() << "; LibTorch built for CUDA " << R.TorchCuda->str();
    outs() << "\n";
    for (const Verdict &V : C.Verdicts)
      outs() << R.Path << ": " << severityName(V.Severity) << ": " << V.Message
             << "\n";
  }
  if (!Programs.empty())
    outs() << "gpuguard doctor: " << Programs.size() << " program(s) read, "
           << CannotRun << " cannot run here\n";
  return Exit;
}

} // namespace gpuguard::doctor
