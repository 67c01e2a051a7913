//===--- InputSelection.cpp - Which files a run checks --------------------===//

#include "Driver/InputSelection.h"
#include "Driver/Paths.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Path.h"
#include <algorithm>

namespace gpuguard {

bool isCheckableSource(llvm::StringRef File) {
  llvm::StringRef Ext = llvm::sys::path::extension(File);
  return llvm::is_contained(
      {".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c++", ".C", ".c"}, Ext);
}

std::vector<std::string>
checkableSources(const clang::tooling::CompilationDatabase &Database) {
  std::vector<std::string> Sources;
  for (const std::string &File : Database.getAllFiles())
    if (isCheckableSource(File))
      Sources.push_back(File);
  // The database's own order is its hash table's: sort for a stable one.
  llvm::sort(Sources);
  return Sources;
}

static llvm::Error shardError(const llvm::Twine &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message.str());
}

llvm::Expected<ShardSpec> parseShard(llvm::StringRef Text) {
  auto [KText, NText] = Text.split('/');
  ShardSpec Shard;
  if (KText.getAsInteger(10, Shard.K) || NText.getAsInteger(10, Shard.N))
    return shardError("--shard='" + Text +
                      "' is not of the form K/N; pass e.g. --shard=2/4 for "
                      "the second of four shards");
  if (Shard.N == 0)
    return shardError(
        "--shard=" + Text +
        " is out of range; N, the number of shards, must be at least 1");
  if (Shard.K == 0 || Shard.K > Shard.N)
    return shardError("--shard=" + Text +
                      " is out of range; K must be between 1 and N (" +
                      "--shard=1/" + llvm::Twine(Shard.N) + " to --shard=" +
                      llvm::Twine(Shard.N) + "/" + llvm::Twine(Shard.N) + ")");
  return Shard;
}

std::vector<std::string> selectShard(const std::vector<std::string> &Inputs,
                                     ShardSpec Shard) {
  std::vector<std::string> Sorted;
  for (const std::string &Input : Inputs)
    Sorted.push_back(makeAbsolute(Input));
  llvm::sort(Sorted);
  Sorted.erase(std::unique(Sorted.begin(), Sorted.end()), Sorted.end());
  llvm::StringSet<> Mine;
  for (size_t I = Shard.K - 1; I < Sorted.size(); I += Shard.N)
    Mine.insert(Sorted[I]);
  std::vector<std::string> Selected;
  for (const std::string &Input : Inputs)
    if (Mine.contains(makeAbsolute(Input)))
      Selected.push_back(Input);
  return Selected;
}

} // namespace gpuguard
