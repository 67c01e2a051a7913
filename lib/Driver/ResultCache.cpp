//===--- ResultCache.cpp - Findings of unchanged files, kept --------------===//

#include "Driver/ResultCache.h"
#include "Frontend/TorchDiscovery.h"
#include "Support/ContentHash.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <algorithm>
#include <chrono>
#include <thread>

using namespace llvm;
using clang::tidy::ClangTidyError;
using clang::tidy::ClangTidyStats;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace gpuguard {

namespace {

/// Raised whenever an entry's layout changes: older entries are misses.
constexpr int64_t EntrySchema = 1;

json::Value messageToJson(const clang::tooling::DiagnosticMessage &Message) {
  json::Array Fixes;
  for (const auto &FileFixes : Message.Fix)
    for (const clang::tooling::Replacement &R : FileFixes.second)
      Fixes.push_back(json::Object{{"file", R.getFilePath()},
                                   {"offset", int64_t(R.getOffset())},
                                   {"length", int64_t(R.getLength())},
                                   {"text", R.getReplacementText()}});
  json::Array Ranges;
  for (const clang::tooling::FileByteRange &Range : Message.Ranges)
    Ranges.push_back(json::Object{{"file", Range.FilePath},
                                  {"offset", int64_t(Range.FileOffset)},
                                  {"length", int64_t(Range.Length)}});
  return json::Object{{"message", Message.Message},
                      {"file", Message.FilePath},
                      {"offset", int64_t(Message.FileOffset)},
                      {"fixes", std::move(Fixes)},
                      {"ranges", std::move(Ranges)}};
}

bool messageFromJson(const json::Value &Value,
                     clang::tooling::DiagnosticMessage &Message) {
  const json::Object *Object = Value.getAsObject();
  if (!Object)
    return false;
  std::optional<StringRef> Text = Object->getString("message");
  std::optional<StringRef> File = Object->getString("file");
  std::optional<int64_t> Offset = Object->getInteger("offset");
  const json::Array *Fixes = Object->getArray("fixes");
  const json::Array *Ranges = Object->getArray("ranges");
  if (!Text || !File || !Offset || !Fixes || !Ranges)
    return false;
  Message.Message = Text->str();
  Message.FilePath = File->str();
  Message.FileOffset = unsigned(*Offset);
  for (const json::Value &Fix : *Fixes) {
    const json::Object *F = Fix.getAsObject();
    if (!F)
      return false;
    std::optional<StringRef> FixFile = F->getString("file");
    std::optional<int64_t> FixOffset = F->getInteger("offset");
    std::optional<int64_t> Length = F->getInteger("length");
    std::optional<StringRef> Replacement = F->getString("text");
    if (!FixFile || !FixOffset || !Length || !Replacement)
      return false;
    if (Error E = Message.Fix[*FixFile].add(clang::tooling::Replacement(
            *FixFile, unsigned(*FixOffset), unsigned(*Length), *Replacement))) {
      consumeError(std::move(E));
      return false;
    }
  }
  for (const json::Value &Range : *Ranges) {
    const json::Object *R = Range.getAsObject();
    if (!R)
      return false;
    std::optional<StringRef> RangeFile = R->getString("file");
    std::optional<int64_t> RangeOffset = R->getInteger("offset");
    std::optional<int64_t> Length = R->getInteger("length");
    if (!RangeFile || !RangeOffset || !Length)
      return false;
    clang::tooling::FileByteRange Byte;
    Byte.FilePath = RangeFile->str();
    Byte.FileOffset = unsigned(*RangeOffset);
    Byte.Length = unsigned(*Length);
    Message.Ranges.push_back(std::move(Byte));
  }
  return true;
}

json::Value errorToJson(const ClangTidyError &Error) {
  json::Array Notes;
  for (const clang::tooling::DiagnosticMessage &Note : Error.Notes)
    Notes.push_back(messageToJson(Note));
  json::Array Aliases;
  for (const std::string &Alias : Error.EnabledDiagnosticAliases)
    Aliases.push_back(Alias);
  return json::Object{{"name", Error.DiagnosticName},
                      {"level", int64_t(Error.DiagLevel)},
                      {"build_directory", Error.BuildDirectory},
                      {"warning_as_error", Error.IsWarningAsError},
                      {"aliases", std::move(Aliases)},
                      {"message", messageToJson(Error.Message)},
                      {"notes", std::move(Notes)}};
}

std::optional<ClangTidyError> errorFromJson(const json::Value &Value) {
  const json::Object *Object = Value.getAsObject();
  if (!Object)
    return std::nullopt;
  std::optional<StringRef> Name = Object->getString("name");
  std::optional<int64_t> Level = Object->getInteger("level");
  std::optional<StringRef> BuildDirectory =
      Object->getString("build_directory");
  std::optional<bool> AsError = Object->getBoolean("warning_as_error");
  const json::Array *Aliases = Object->getArray("aliases");
  const json::Value *Message = Object->get("message");
  const json::Array *Notes = Object->getArray("notes");
  if (!Name || !Level || !BuildDirectory || !AsError || !Aliases || !Message ||
      !Notes ||
      !is_contained({int64_t(ClangTidyError::Remark),
                     int64_t(ClangTidyError::Warning),
                     int64_t(ClangTidyError::Error)},
                    *Level))
    return std::nullopt;
  ClangTidyError Error(*Name, ClangTidyError::Level(*Level), *BuildDirectory,
                       *AsError);
  for (const json::Value &Alias : *Aliases) {
    std::optional<StringRef> Text = Alias.getAsString();
    if (!Text)
      return std::nullopt;
    Error.EnabledDiagnosticAliases.push_back(Text->str());
  }
  if (!messageFromJson(*Message, Error.Message))
    return std::nullopt;
  for (const json::Value &Note : *Notes) {
    clang::tooling::DiagnosticMessage Read;
    if (!messageFromJson(Note, Read))
      return std::nullopt;
    Error.Notes.push_back(std::move(Read));
  }
  return Error;
}

json::Value statsToJson(const ClangTidyStats &Stats) {
  return json::Array{int64_t(Stats.ErrorsIgnoredNOLINT),
                     int64_t(Stats.ErrorsIgnoredNonUserCode),
                     int64_t(Stats.ErrorsIgnoredLineFilter),
                     int64_t(Stats.ErrorsIgnoredCheckFilter)};
}

bool statsFromJson(const json::Array *Values, ClangTidyStats &Stats) {
  if (!Values || Values->size() != 4)
    return false;
  unsigned *Fields[] = {
      &Stats.ErrorsIgnoredNOLINT, &Stats.ErrorsIgnoredNonUserCode,
      &Stats.ErrorsIgnoredLineFilter, &Stats.ErrorsIgnoredCheckFilter};
  for (size_t I = 0; I < 4; ++I) {
    std::optional<int64_t> Count = (*Values)[I].getAsInteger();
    if (!Count || *Count < 0)
      return false;
    *Fields[I] = unsigned(*Count);
  }
  return true;
}

} // namespace

std::optional<std::string> ResultCache::hashOfFile(StringRef File) {
  {
    std::lock_guard<std::mutex> Lock(HashesMutex);
    auto Known = Hashes.find(File);
    if (Known != Hashes.end())
      return Known->second;
  }
  std::optional<std::string> Hash;
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
          MemoryBuffer::getFile(File, /*IsText=*/false,
                                /*RequiresNullTerminator=*/false))
    Hash = support::contentHash((*Buffer)->getBuffer());
  std::lock_guard<std::mutex> Lock(HashesMutex);
  Hashes.try_emplace(File, Hash);
  return Hash;
}

static std::vector<std::unique_ptr<CacheStore>>
directoryAlone(std::string Directory, uint64_t MaxBytes) {
  std::vector<std::unique_ptr<CacheStore>> Stores;
  Stores.push_back(createDirectoryStore(std::move(Directory), MaxBytes));
  return Stores;
}

ResultCache::ResultCache(std::string Directory, uint64_t MaxBytes)
    : ResultCache(directoryAlone(std::move(Directory), MaxBytes)) {}

ResultCache::ResultCache(std::vector<std::unique_ptr<CacheStore>> Stores) {
  for (std::unique_ptr<CacheStore> &Store : Stores) {
    Slots.push_back(std::make_unique<Slot>());
    Slots.back()->Store = std::move(Store);
  }
}

std::string ResultCache::key(ArrayRef<std::string> Parts) {
  SHA256 Hasher;
  for (const std::string &Part : Parts) {
    // Each part with its length, so that no two lists of parts collide.
    Hasher.update(std::to_string(Part.size()) + ":");
    Hasher.update(Part);
  }
  std::array<uint8_t, 32> Digest = Hasher.final();
  return toHex(Digest, /*LowerCase=*/true);
}

std::string ResultCache::defaultDirectory() {
  std::string Base = frontend::defaultCacheDir();
  if (Base.empty())
    return "";
  SmallString<256> Directory(Base);
  path::append(Directory, "results");
  return std::string(Directory);
}

std::optional<CachedCheck> ResultCache::decode(StringRef Bytes) {
  // Anything unexpected in an entry makes it a miss; the next store
  // replaces it.
  Expected<json::Value> Parsed = json::parse(Bytes);
  if (!Parsed) {
    consumeError(Parsed.takeError());
    return std::nullopt;
  }
  const json::Object *Root = Parsed->getAsObject();
  if (!Root || Root->getInteger("schema") != EntrySchema)
    return std::nullopt;
  const json::Array *Dependencies = Root->getArray("dependencies");
  const json::Array *Errors = Root->getArray("errors");
  std::optional<bool> ParsedWell = Root->getBoolean("parsed");
  if (!Dependencies || !Errors || !ParsedWell)
    return std::nullopt;
  for (const json::Value &Dependency : *Dependencies) {
    const json::Array *Pair = Dependency.getAsArray();
    if (!Pair || Pair->size() != 2)
      return std::nullopt;
    std::optional<StringRef> File = (*Pair)[0].getAsString();
    std::optional<StringRef> Hash = (*Pair)[1].getAsString();
    if (!File || !Hash)
      return std::nullopt;
    std::optional<std::string> Now = hashOfFile(*File);
    if (!Now || *Now != *Hash)
      return std::nullopt;
  }
  CachedCheck Check;
  Check.Parsed = *ParsedWell;
  if (!statsFromJson(Root->getArray("suppressed"), Check.Suppressed))
    return std::nullopt;
  for (const json::Value &Error : *Errors) {
    std::optional<ClangTidyError> Read = errorFromJson(Error);
    if (!Read)
      return std::nullopt;
    Check.Errors.push_back(std::move(*Read));
  }
  return Check;
}

std::optional<CachedCheck> ResultCache::lookup(StringRef Key) {
  for (size_t I = 0; I < Slots.size(); ++I) {
    Slot &Where = *Slots[I];
    if (Where.Failed)
      continue;
    Expected<std::optional<std::string>> Bytes = Where.Store->get(Key);
    if (!Bytes) {
      giveUp(Where, toString(Bytes.takeError()));
      continue;
    }
    if (!*Bytes)
      continue;
    std::optional<CachedCheck> Check = decode(**Bytes);
    if (!Check)
      continue;
    Where.Store->touch(Key);
    // Found further out: the next run finds it closer.
    for (size_t Closer = 0; Closer < I; ++Closer)
      put(*Slots[Closer], Key, **Bytes);
    ++Hits;
    return Check;
  }
  return std::nullopt;
}

void ResultCache::store(StringRef Key, const CachedCheck &Check,
                        ArrayRef<std::string> Dependencies) {
  if (llvm::all_of(Slots, [](const std::unique_ptr<Slot> &Where) {
        return Where->Failed || Where->NotWritable;
      }))
    return;
  json::Array DependencyHashes;
  for (const std::string &File : Dependencies) {
    std::optional<std::string> Hash = hashOfFile(File);
    // A file read that cannot be read back cannot be checked later.
    if (!Hash)
      return;
    DependencyHashes.push_back(json::Array{File, *Hash});
  }
  json::Array Errors;
  for (const ClangTidyError &Error : Check.Errors)
    Errors.push_back(errorToJson(Error));
  json::Object Root{{"schema", EntrySchema},
                    {"dependencies", std::move(DependencyHashes)},
                    {"parsed", Check.Parsed},
                    {"suppressed", statsToJson(Check.Suppressed)},
                    {"errors", std::move(Errors)}};
  std::string Bytes;
  raw_string_ostream(Bytes) << json::Value(std::move(Root));
  bool Kept = false;
  for (const std::unique_ptr<Slot> &Where : Slots)
    Kept |= put(*Where, Key, Bytes);
  // One stored entry, however many stores hold it.
  if (Kept)
    ++Stored;
}

bool ResultCache::put(Slot &Into, StringRef Key, StringRef Bytes) {
  if (Into.Failed || Into.NotWritable)
    return false;
  if (Error E = Into.Store->put(Key, Bytes)) {
    giveUp(Into, toString(std::move(E)));
    return false;
  }
  return true;
}

void ResultCache::giveUp(Slot &Where, const std::string &Why) {
  bool Remote = Where.Store->isRemote();
  (Remote ? Where.Failed : Where.NotWritable) = true;
  std::call_once(Where.Warned, [&] {
    setupMessage(
        {"result-cache",
         Remote ? "the remote result cache '" + Where.Store->name() +
                      "' failed (" + Why +
                      "): the run goes on without it; check the server, or "
                      "leave out --remote-cache and GPUGUARD_REMOTE_CACHE"
                : "the result cache '" + Where.Store->name() +
                      "' cannot be written (" + Why +
                      "): files are checked without storing their results; "
                      "pass --cache-dir=DIR or --no-cache",
         /*IsNote=*/false});
  });
}

void ResultCache::evict() {
  for (const std::unique_ptr<Slot> &Where : Slots)
    Where->Store->evict();
}

} // namespace gpuguard
