//===--- CompileDatabase.cpp - Where compile commands come from -----------===//

#include "Driver/CompileDatabase.h"
#include "Driver/Messages.h"
#include "Driver/Options.h"
#include "Frontend/CompileCommands.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang::tooling;

namespace gpuguard {

std::unique_ptr<CompilationDatabase>
loadDatabase(std::unique_ptr<CompilationDatabase> FromCommandLine,
             bool &Failed) {
  if (FromCommandLine) {
    if (options::BuildPath.getNumOccurrences() > 0)
      warning("-p is ignored because compile flags follow '--'");
    return FromCommandLine;
  }
  if (options::BuildPath.getNumOccurrences() == 0)
    return nullptr;
  std::string ErrorMessage;
  std::unique_ptr<CompilationDatabase> Database =
      frontend::loadCompilationDatabase(options::BuildPath, ErrorMessage);
  llvm::SmallString<256> Json(options::BuildPath.getValue());
  llvm::sys::path::append(Json, "compile_commands.json");
  if (!Database && llvm::sys::fs::exists(Json)) {
    error("'" + Json + "' is not a valid compile database (" +
          llvm::StringRef(ErrorMessage).trim().rtrim('.') +
          "); regenerate it with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON");
    Failed = true;
    return nullptr;
  }
  if (!Database) {
    error("no compile_commands.json in '" + options::BuildPath +
          "' (from -p); generate it with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, "
          "or pass compile flags after '--'");
    Failed = true;
    return nullptr;
  }
  // GpuGuardCompilationDatabase translates nvcc commands, then infers the
  // commands of the files the database does not list.
  return Database;
}

} // namespace gpuguard
