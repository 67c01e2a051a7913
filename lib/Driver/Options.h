//===--- Options.h - The gpuguard command-line options ----------*- C++ -*-===//
///
/// \file
/// The options of `gpuguard` and `gpuguard instrument`, and the parsing of
/// the command line that sets them. The options are process-wide: LLVM's
/// command-line library registers them when the binary starts.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_DRIVER_OPTIONS_H
#define GPUGUARD_DRIVER_OPTIONS_H

#include "Instrument/Recorder.h"
#include "Output/Reporter.h"
#include "llvm/Support/CommandLine.h"
#include <string>

namespace gpuguard {
namespace options {

extern llvm::cl::OptionCategory Category;

extern llvm::cl::list<std::string> SourcePaths;
extern llvm::cl::opt<std::string> BuildPath;
extern llvm::cl::opt<std::string> Checks;
extern llvm::cl::opt<std::string> WarningsAsErrorsGlob;
extern llvm::cl::opt<std::string> Config;
extern llvm::cl::opt<std::string> ConfigFile;
extern llvm::cl::opt<std::string> HeaderFilter;
extern llvm::cl::opt<std::string> ExcludeHeaderFilter;
extern llvm::cl::opt<bool> SystemHeaders;
extern llvm::cl::opt<std::string> LineFilter;
extern llvm::cl::opt<bool> Fix;
extern llvm::cl::opt<bool> FixErrors;
extern llvm::cl::opt<bool> FixNotes;
extern llvm::cl::opt<std::string> ExportFixes;
extern llvm::cl::list<std::string> ExtraArgs;
extern llvm::cl::list<std::string> ExtraArgsBefore;
extern llvm::cl::opt<std::string> CudaPath;
extern llvm::cl::opt<bool> BundledCudaHeaders;
extern llvm::cl::opt<std::string> CudaGpuArch;
extern llvm::cl::opt<bool> TorchPch;
extern llvm::cl::opt<bool> ListChecks;
extern llvm::cl::opt<bool> DumpConfig;
extern llvm::cl::opt<bool> Quiet;
extern llvm::cl::opt<bool> UseColor;
extern llvm::cl::opt<output::Format> OutputFormat;
extern llvm::cl::opt<std::string> OutputFile;
extern llvm::cl::opt<std::string> SarifRoot;
extern llvm::cl::opt<std::string> DocsUrl;
extern llvm::cl::opt<std::string> BaselineFile;
extern llvm::cl::opt<std::string> WriteBaselineFile;
extern llvm::cl::opt<std::string> DiffSource;
extern llvm::cl::opt<unsigned> Jobs;
extern llvm::cl::opt<double> Timeout;
extern llvm::cl::opt<std::string> Shard;
extern llvm::cl::opt<std::string> CacheDir;
extern llvm::cl::opt<std::string> RemoteCache;
extern llvm::cl::opt<bool> NoCache;
extern llvm::cl::opt<bool> NoPreamble;
extern llvm::cl::opt<std::string> OutputDirectory;
extern llvm::cl::opt<instrument::InstrumentMode> InstrumentWhat;

} // namespace options

/// Parses the command line into the options above, with the flags after
/// `--` already taken out. Returns false, once the error is printed as one
/// line, when it cannot be parsed.
bool parseCommandLine(int Argc, const char **Argv);

} // namespace gpuguard

#endif // GPUGUARD_DRIVER_OPTIONS_H
