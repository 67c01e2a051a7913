//===--- Options.cpp - The gpuguard command-line options ------------------===//

#include "Driver/Options.h"
#include "Driver/Messages.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#ifndef GPUGUARD_VERSION
#define GPUGUARD_VERSION "unknown"
#endif

namespace cl = llvm::cl;

namespace gpuguard {
namespace options {

cl::OptionCategory Category("gpuguard options");

const char Overview[] = R"(
gpuguard finds the causes of "device-side assert triggered" in CUDA kernels
and LibTorch C++ code before they run: indexes no guard bounds, zero
divisors, unchecked CUDA errors, tensors on mixed devices, in-place writes
autograd still needs. It follows clang-tidy's conventions: checks are chosen
with --checks or .clang-tidy files, NOLINT comments suppress findings, and
compile flags come from -p <build dir> or follow '--'.

'gpuguard instrument <file>... -o <dir> [--instrument=flagged|all]' also
writes a copy of each file, under <dir> at its absolute path, in which the
runtime library (runtime/, gpuguard::runtime) checks the same sites while the
program runs. The inputs are never changed; each copy is written atomically.

Exit codes: 0 checked (warnings may be printed), 1 warnings treated as
errors, 2 unusable command line or configuration, 3 an input could not be
checked (missing, unreadable, with compile errors, or crashing the parser).
The largest applies.
)";

cl::list<std::string> SourcePaths(cl::Positional, cl::desc("<source>..."),
                                  cl::cat(Category));
cl::opt<std::string> BuildPath(
    "p",
    cl::desc("Build directory holding compile_commands.json. With no\n"
             "source given, every file it lists is checked."),
    cl::value_desc("build-dir"), cl::cat(Category));
cl::opt<std::string>
    Checks("checks",
           cl::desc("Comma-separated globs of checks to run, prefix '-' to\n"
                    "disable (like clang-tidy). Default: all gpuguard checks,\n"
                    "'cuda-*,torch-*'. Added after the .clang-tidy 'Checks'."),
           cl::init(""), cl::cat(Category));
cl::opt<std::string> WarningsAsErrorsGlob(
    "warnings-as-errors",
    cl::desc("Globs of checks whose warnings are errors (exit code 1)."),
    cl::init(""), cl::cat(Category));
cl::opt<std::string> Config(
    "config",
    cl::desc("Configuration in YAML, as in a .clang-tidy file; overrides\n"
             "the .clang-tidy files."),
    cl::init(""), cl::cat(Category));
cl::opt<std::string>
    ConfigFile("config-file",
               cl::desc("Read the configuration from this file instead of the\n"
                        ".clang-tidy files."),
               cl::init(""), cl::cat(Category));
cl::opt<std::string> HeaderFilter(
    "header-filter",
    cl::desc("Regex of headers whose findings are shown (the main file's\n"
             "are always shown)."),
    cl::init(""), cl::cat(Category));
cl::opt<std::string> ExcludeHeaderFilter(
    "exclude-header-filter",
    cl::desc("Regex of headers whose findings are never shown."), cl::init(""),
    cl::cat(Category));
cl::opt<bool> SystemHeaders("system-headers",
                            cl::desc("Show findings in system headers."),
                            cl::init(false), cl::cat(Category));
cl::opt<std::string> LineFilter(
    "line-filter",
    cl::desc("JSON list of files and line ranges to report on, e.g.\n"
             R"('[{"name":"k.cu","lines":[[10,20]]}]')"),
    cl::init(""), cl::cat(Category));
cl::opt<bool> Fix("fix", cl::desc("Apply the fixes of the findings."),
                  cl::init(false), cl::cat(Category));
cl::opt<bool> FixErrors("fix-errors",
                        cl::desc("Apply fixes even when a file has compile "
                                 "errors."),
                        cl::init(false), cl::cat(Category));
cl::opt<bool> FixNotes("fix-notes",
                       cl::desc("Also apply the fixes attached to notes."),
                       cl::init(false), cl::cat(Category));
cl::opt<std::string> ExportFixes(
    "export-fixes",
    cl::desc("Write the findings and their fixes to this YAML file, in\n"
             "clang-apply-replacements' format."),
    cl::value_desc("filename"), cl::cat(Category));
cl::list<std::string> ExtraArgs("extra-arg",
                                cl::desc("Append this compile flag."),
                                cl::cat(Category));
cl::list<std::string> ExtraArgsBefore("extra-arg-before",
                                      cl::desc("Prepend this compile flag."),
                                      cl::cat(Category));
cl::opt<std::string>
    CudaPath("cuda-path",
             cl::desc("CUDA toolkit to parse with. Default: $CUDA_PATH, then\n"
                      "/usr/local/cuda, then gpuguard's bundled CUDA headers."),
             cl::init(""), cl::cat(Category));
cl::opt<bool> BundledCudaHeaders(
    "bundled-cuda-headers",
    cl::desc("Parse with gpuguard's bundled CUDA headers even when a\n"
             "toolkit is installed (reproducible results across machines)."),
    cl::init(false), cl::cat(Category));
cl::opt<std::string> CudaGpuArch(
    "cuda-gpu-arch",
    cl::desc("GPU architecture to parse device code for, when the compile\n"
             "command names none."),
    cl::init("sm_80"), cl::cat(Category));
cl::opt<bool>
    TorchPch("torch-pch",
             cl::desc("For LibTorch files checked without flags: precompile\n"
                      "<torch/torch.h> once into $XDG_CACHE_HOME/gpuguard (or\n"
                      "~/.cache/gpuguard) and reuse it, several times faster."),
             cl::init(false), cl::cat(Category));
cl::opt<bool> ListChecks("list-checks",
                         cl::desc("List the enabled checks and exit."),
                         cl::init(false), cl::cat(Category));
cl::opt<bool> DumpConfig("dump-config",
                         cl::desc("Print the effective configuration as "
                                  "YAML and exit."),
                         cl::init(false), cl::cat(Category));
cl::opt<bool> Quiet("quiet",
                    cl::desc("Print findings only: no statistics, no notes "
                             "about the set-up."),
                    cl::init(false), cl::cat(Category));
cl::opt<bool> UseColor("use-color", cl::desc("Colour the diagnostics."),
                       cl::cat(Category));

// Output formats, baselines and changed-lines-only runs (lib/Output).
cl::opt<output::Format> OutputFormat(
    "format", cl::desc("How findings are printed."),
    cl::values(clEnumValN(output::Format::Text, "text",
                          "clang-tidy's text (default)"),
               clEnumValN(output::Format::Sarif, "sarif", "SARIF 2.1.0 JSON"),
               clEnumValN(output::Format::GitHub, "github",
                          "GitHub Actions annotations")),
    cl::init(output::Format::Text), cl::cat(Category));
cl::opt<std::string> OutputFile(
    "output",
    cl::desc("Write the SARIF or GitHub output to this file (atomically)\n"
             "instead of standard output."),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> SarifRoot(
    "sarif-root",
    cl::desc("Directory that the paths in SARIF, GitHub annotations and\n"
             "baselines are relative to. Default: the working directory."),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> DocsUrl(
    "docs-url",
    cl::desc("Base URL of gpuguard's docs, for the SARIF rules' help\n"
             "links (checks/<module>/<check>.md is appended). Default:\n"
             "no links; the rules carry their help text."),
    cl::value_desc("url"), cl::cat(Category));
cl::opt<std::string>
    BaselineFile("baseline",
                 cl::desc("Hide the findings this baseline file lists (see\n"
                          "--write-baseline)."),
                 cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> WriteBaselineFile(
    "write-baseline",
    cl::desc("Write the findings of this run to a baseline file."),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> DiffSource(
    "diff",
    cl::desc("Report only findings on lines changed since this git\n"
             "revision ('git diff <rev>'), or by the unified diff on\n"
             "standard input with --diff=-. With no files given, the\n"
             "changed files are checked."),
    cl::value_desc("rev|-"), cl::cat(Category));

cl::opt<unsigned>
    Jobs("j",
         cl::desc("Files checked at once (default: one per core). Output\n"
                  "order does not depend on it."),
         cl::value_desc("N"), cl::init(0), cl::Prefix, cl::cat(Category));
cl::opt<double> Timeout(
    "timeout",
    cl::desc("Seconds each file may take (default: 120; 0: no limit). A\n"
             "file whose analysis runs past it is reported as not\n"
             "checked (exit 3) and the run goes on; parsing itself is\n"
             "not interrupted."),
    cl::value_desc("seconds"), cl::init(120), cl::cat(Category));
cl::opt<std::string>
    Shard("shard",
          cl::desc("Check only part K of N of the files (1 <= K <= N), for\n"
                   "CI matrix jobs: the files, sorted by path, are dealt out\n"
                   "round-robin, so each file is in exactly one shard."),
          cl::value_desc("K/N"), cl::cat(Category));

cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Keep each file's findings here and replay them while the\n"
             "file, every header it read, its command and the\n"
             "configuration are unchanged. Default:\n"
             "$XDG_CACHE_HOME/gpuguard/results (or\n"
             "~/.cache/gpuguard/results)."),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> RemoteCache(
    "remote-cache",
    cl::desc("Share the result cache with other machines through\n"
             "redis://[[USER]:PASSWORD@]HOST[:PORT][/DB] or an HTTP\n"
             "server that takes PUT: http[s]://HOST[:PORT][/PATH].\n"
             "Searched after --cache-dir, which keeps what it finds.\n"
             "Default: $GPUGUARD_REMOTE_CACHE."),
    cl::value_desc("url"), cl::cat(Category));
cl::opt<bool> NoPreamble(
    "no-preamble",
    cl::desc("Parse each file in full. By default the #include lines at\n"
             "the top of a file and the headers they include are parsed\n"
             "once into a precompiled preamble, kept in\n"
             "$XDG_CACHE_HOME/gpuguard/preambles and loaded by every later\n"
             "parse of the same lines with the same flags."),
    cl::init(false), cl::cat(Category));
cl::opt<bool> NoCache("no-cache",
                      cl::desc("Check every file, neither reading nor "
                               "writing the result cache."),
                      cl::init(false), cl::cat(Category));

// `gpuguard instrument` only.
cl::opt<std::string> OutputDirectory(
    "o",
    cl::desc("gpuguard instrument: directory for the instrumented\n"
             "copies, which mirror each source's absolute path."),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<instrument::InstrumentMode> InstrumentWhat(
    "instrument",
    cl::desc("gpuguard instrument: which sites get a runtime check."),
    cl::values(clEnumValN(instrument::InstrumentMode::Flagged, "flagged",
                          "every site a check reports (default)"),
               clEnumValN(instrument::InstrumentMode::All, "all",
                          "also every site of those kinds not proven safe")),
    cl::init(instrument::InstrumentMode::Flagged), cl::cat(Category));

} // namespace options

bool parseCommandLine(int Argc, const char **Argv) {
  cl::HideUnrelatedOptions(options::Category);
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "gpuguard " << GPUGUARD_VERSION << " (LLVM " << LLVM_VERSION_STRING
       << ")\n";
  });
  // LLVM's own complaint about an unknown option may take several lines
  // ("did you mean"); it is printed as one error line.
  std::string ParseErrors;
  llvm::raw_string_ostream ParseErrorStream(ParseErrors);
  if (cl::ParseCommandLineOptions(Argc, Argv, options::Overview,
                                  &ParseErrorStream))
    return true;
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(ParseErrors).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  std::string Joined;
  for (llvm::StringRef Line : Lines) {
    Line = Line.trim();
    Line.consume_front(llvm::sys::path::filename(Argv[0]));
    Line = Line.ltrim(": ");
    Joined += (Joined.empty() ? "" : "; ") + Line.str();
  }
  // A value an option cannot take is reported by the option itself, in one
  // line on standard error, and leaves nothing here.
  if (Joined.empty())
    return false;
  Joined[0] = llvm::toLower(Joined[0]);
  error(Joined);
  return false;
}

} // namespace gpuguard
