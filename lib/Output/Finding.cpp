//===--- Finding.cpp - A finding as the output formats see it -------------===//

#include "Output/Finding.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <tuple>

namespace gpuguard::output {
namespace {

std::optional<std::string> lexicallyInside(llvm::StringRef Path,
                                           llvm::StringRef Root) {
  if (Root.size() > 1)
    Root.consume_back("/");
  if (Root == "/")
    return Path.starts_with("/") ? std::optional(Path.drop_front().str())
                                 : std::nullopt;
  if (!Path.starts_with(Root) || Path.size() <= Root.size() + 1 ||
      Path[Root.size()] != '/')
    return std::nullopt;
  return Path.drop_front(Root.size() + 1).str();
}

} // namespace

bool reportedBefore(const Finding &A, const Finding &B) {
  return std::tie(A.Where.RelativePath, A.Where.Line, A.Where.Column, A.Check,
                  A.Message) < std::tie(B.Where.RelativePath, B.Where.Line,
                                        B.Where.Column, B.Check, B.Message);
}

std::optional<std::string> pathInside(llvm::StringRef Path,
                                      llvm::StringRef Root) {
  if (std::optional<std::string> Relative = lexicallyInside(Path, Root))
    return Relative;
  llvm::SmallString<256> RealPath, RealRoot;
  if (llvm::sys::fs::real_path(Path, RealPath) ||
      llvm::sys::fs::real_path(Root, RealRoot))
    return std::nullopt;
  return lexicallyInside(RealPath, RealRoot);
}

} // namespace gpuguard::output
