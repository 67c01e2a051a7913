//===--- InputSelection.h - Which files a run checks ------------*- C++ -*-===//
///
/// \file
/// The files a run checks when they are not all named: the sources of a
/// compile database, and the part of them one --shard=K/N job takes.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_DRIVER_INPUTSELECTION_H
#define GPUGUARD_DRIVER_INPUTSELECTION_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace gpuguard {

/// Source files worth checking when -p is given without files.
bool isCheckableSource(llvm::StringRef File);

/// The checkable sources \p Database lists, sorted by path.
std::vector<std::string>
checkableSources(const clang::tooling::CompilationDatabase &Database);

/// Part K of N of a run's files (1 <= K <= N).
struct ShardSpec {
  unsigned K = 1;
  unsigned N = 1;
};

/// Parses the K/N of --shard=K/N; the error says what is wrong and how to
/// write it instead.
llvm::Expected<ShardSpec> parseShard(llvm::StringRef Text);

/// The files of \p Shard, in their original order: the distinct files,
/// sorted by path, are dealt out round-robin, so shards differ in size by at
/// most one file and every machine computes the same split.
std::vector<std::string> selectShard(const std::vector<std::string> &Inputs,
                                     ShardSpec Shard);

} // namespace gpuguard

#endif // GPUGUARD_DRIVER_INPUTSELECTION_H
