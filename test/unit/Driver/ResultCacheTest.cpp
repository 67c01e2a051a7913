//===--- ResultCacheTest.cpp ----------------------------------------------===//
//
// The result cache replays exactly what was stored, and only while every
// file the outcome depends on has the content it had; anything else is a
// miss, never an error.
//
//===----------------------------------------------------------------------===//

#include "Driver/ResultCache.h"
#include "TemporaryDirectoryTest.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <chrono>

using namespace gpuguard;
using clang::tidy::ClangTidyError;
namespace fs = llvm::sys::fs;

namespace {

class ResultCacheTest : public gpuguard::test::TemporaryDirectoryTest {
protected:
  void SetUp() override {
    TemporaryDirectoryTest::SetUp();
    Header = write("launch.cuh", "constexpr int kThreads = 256;\n");
  }

  /// A finding with a note, a fix-it, a range and an alias.
  static CachedCheck sample() {
    ClangTidyError Error("cuda-unchecked-index", ClangTidyError::Warning,
                         "/build", /*IsWarningAsError=*/true);
    Error.Message.Message = "index 'i' of 'data[i]' is not bounded";
    Error.Message.FilePath = "/src/scale.cu";
    Error.Message.FileOffset = 120;
    clang::tooling::FileByteRange Range;
    Range.FilePath = "/src/scale.cu";
    Range.FileOffset = 118;
    Range.Length = 7;
    Error.Message.Ranges.push_back(Range);
    llvm::consumeError(Error.Message.Fix["/src/scale.cu"].add(
        clang::tooling::Replacement("/src/scale.cu", 100, 0, "if (i < n)\n")));
    clang::tooling::DiagnosticMessage Note("'i' is computed here");
    Note.FilePath = "/src/scale.cu";
    Note.FileOffset = 80;
    Error.Notes.push_back(Note);
    Error.EnabledDiagnosticAliases.push_back("cuda-bounds");
    CachedCheck Check;
    Check.Errors.push_back(Error);
    Check.Parsed = false;
    Check.Suppressed.ErrorsIgnoredNOLINT = 2;
    Check.Suppressed.ErrorsIgnoredNonUserCode = 5;
    return Check;
  }

  std::string Header;
};

TEST_F(ResultCacheTest, ReplaysWhatWasStored) {
  ResultCache Cache(path("cache"), 1 << 20);
  std::string Key = ResultCache::key({"run", "/src/scale.cu"});
  EXPECT_FALSE(Cache.lookup(Key));
  Cache.store(Key, sample(), {Header});
  std::optional<CachedCheck> Hit = Cache.lookup(Key);
  ASSERT_TRUE(Hit);
  EXPECT_EQ(Cache.hits(), 1u);
  EXPECT_FALSE(Hit->Parsed);
  ASSERT_EQ(Hit->Errors.size(), 1u);
  const ClangTidyError &E = Hit->Errors[0];
  EXPECT_EQ(E.DiagnosticName, "cuda-unchecked-index");
  EXPECT_EQ(E.DiagLevel, ClangTidyError::Warning);
  EXPECT_EQ(E.BuildDirectory, "/build");
  EXPECT_TRUE(E.IsWarningAsError);
  EXPECT_EQ(E.EnabledDiagnosticAliases,
            std::vector<std::string>{"cuda-bounds"});
  EXPECT_EQ(E.Message.Message, "index 'i' of 'data[i]' is not bounded");
  EXPECT_EQ(E.Message.FileOffset, 120u);
  ASSERT_EQ(E.Message.Ranges.size(), 1u);
  EXPECT_EQ(E.Message.Ranges[0].FileOffset, 118u);
  EXPECT_EQ(E.Message.Ranges[0].Length, 7u);
  ASSERT_EQ(E.Message.Fix.count("/src/scale.cu"), 1u);
  const clang::tooling::Replacements &Fixes =
      E.Message.Fix.find("/src/scale.cu")->second;
  ASSERT_EQ(Fixes.size(), 1u);
  EXPECT_EQ(Fixes.begin()->getOffset(), 100u);
  EXPECT_EQ(Fixes.begin()->getReplacementText(), "if (i < n)\n");
  ASSERT_EQ(E.Notes.size(), 1u);
  EXPECT_EQ(E.Notes[0].Message, "'i' is computed here");
  EXPECT_EQ(E.Notes[0].FileOffset, 80u);
  EXPECT_EQ(Hit->Suppressed.ErrorsIgnoredNOLINT, 2u);
  EXPECT_EQ(Hit->Suppressed.ErrorsIgnoredNonUserCode, 5u);
}

TEST_F(ResultCacheTest, AnEditToAFileReadIsAMiss) {
  std::string Key = ResultCache::key({"k"});
  ResultCache(path("cache"), 1 << 20).store(Key, sample(), {Header});
  // Each lookup is a later run's: a run reads each file's hash once.
  // A comment is an edit: it may hold a NOLINT.
  write(Header, "constexpr int kThreads = 256; // NOLINT\n");
  EXPECT_FALSE(ResultCache(path("cache"), 1 << 20).lookup(Key));
  write(Header, "constexpr int kThreads = 256;\n");
  EXPECT_TRUE(ResultCache(path("cache"), 1 << 20).lookup(Key));
  fs::remove(Header);
  EXPECT_FALSE(ResultCache(path("cache"), 1 << 20).lookup(Key));
}

TEST_F(ResultCacheTest, KeysTellTheirPartsApart) {
  EXPECT_NE(ResultCache::key({"ab", "c"}), ResultCache::key({"a", "bc"}));
  EXPECT_NE(ResultCache::key({"a"}), ResultCache::key({"a", ""}));
  EXPECT_EQ(ResultCache::key({"a", "b"}), ResultCache::key({"a", "b"}));
}

TEST_F(ResultCacheTest, CorruptOrForeignEntriesAreMisses) {
  ResultCache Cache(path("cache"), 1 << 20);
  std::string Key = ResultCache::key({"k"});
  Cache.store(Key, sample(), {Header});
  std::string Entry;
  std::error_code EC;
  for (fs::recursive_directory_iterator It(path("cache"), EC), End;
       It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".json"))
      Entry = It->path();
  ASSERT_FALSE(Entry.empty());
  for (llvm::StringRef Text :
       {"", "{\"schema\": 1, \"depend", "[1, 2]",
        "{\"schema\": 99, \"dependencies\": [], \"parsed\": true, "
        "\"suppressed\": [0, 0, 0, 0], \"errors\": []}",
        "{\"schema\": 1, \"dependencies\": [], \"parsed\": true, "
        "\"suppressed\": [0, 0, 0, 0], \"errors\": [{\"name\": 3}]}"}) {
    write(Entry, Text);
    EXPECT_FALSE(Cache.lookup(Key)) << Text.str();
  }
  // The next store replaces the entry.
  Cache.store(Key, sample(), {Header});
  EXPECT_TRUE(Cache.lookup(Key));
}

TEST_F(ResultCacheTest, AnUnwritableCacheSaysSoOnceAndStopsStoring) {
  std::string NotADirectory = path("file");
  write(NotADirectory, "");
  ResultCache Cache(NotADirectory, 1 << 20);
  std::vector<SetupMessage> Said;
  collectSetupMessages(&Said);
  Cache.store(ResultCache::key({"a"}), sample(), {Header});
  Cache.store(ResultCache::key({"b"}), sample(), {Header});
  collectSetupMessages(nullptr);
  ASSERT_EQ(Said.size(), 1u);
  EXPECT_NE(Said[0].Text.find("cannot be written"), std::string::npos)
      << Said[0].Text;
  EXPECT_EQ(Cache.stores(), 0u);
  EXPECT_FALSE(Cache.lookup(ResultCache::key({"a"})));
}

TEST_F(ResultCacheTest, EvictionDropsTheLeastRecentlyUsed) {
  // Room for two entries and most of a third: one eviction drops one.
  ResultCache Probe(path("probe"), 1 << 20);
  Probe.store("00probe", sample(), {Header});
  uint64_t EntrySize = 0;
  fs::file_size(path("probe") + "/00/probe.json", EntrySize);
  ASSERT_GT(EntrySize, 0u);

  ResultCache Cache(path("cache"), EntrySize * 29 / 10);
  std::string Old = ResultCache::key({"old"}), Used = ResultCache::key({"u"}),
              New = ResultCache::key({"new"});
  Cache.store(Old, sample(), {Header});
  Cache.store(Used, sample(), {Header});
  // Older by modification time, then the second is used again.
  auto Past = std::chrono::system_clock::now() - std::chrono::hours(1);
  for (const std::string &Key : {Old, Used}) {
    int FD;
    ASSERT_FALSE(fs::openFileForWrite(path("cache") + "/" + Key.substr(0, 2) +
                                          "/" + Key.substr(2) + ".json",
                                      FD, fs::CD_OpenExisting, fs::OF_Append));
    fs::setLastAccessAndModificationTime(FD, Past);
    llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  }
  EXPECT_TRUE(Cache.lookup(Used));
  Cache.store(New, sample(), {Header});
  Cache.evict();
  EXPECT_FALSE(Cache.lookup(Old));
  EXPECT_TRUE(Cache.lookup(Used));
  EXPECT_TRUE(Cache.lookup(New));
}

/// A shared store that keeps entries in memory, or fails every call, and
/// counts the calls it gets.
class FakeSharedStore : public CacheStore {
public:
  FakeSharedStore(llvm::StringMap<std::string> &Entries, bool Fails,
                  unsigned &Calls)
      : Entries(Entries), Fails(Fails), Calls(Calls) {}
  std::string name() const override { return "redis://cache:6379"; }
  bool isRemote() const override { return true; }
  llvm::Expected<std::optional<std::string>> get(llvm::StringRef Key) override {
    ++Calls;
    if (Fails)
      return llvm::createStringError("Connection refused");
    auto Found = Entries.find(Key);
    if (Found == Entries.end())
      return std::nullopt;
    return Found->second;
  }
  llvm::Error put(llvm::StringRef Key, llvm::StringRef Bytes) override {
    ++Calls;
    if (Fails)
      return llvm::createStringError("Connection refused");
    Entries[Key] = Bytes.str();
    return llvm::Error::success();
  }

private:
  llvm::StringMap<std::string> &Entries;
  bool Fails;
  unsigned &Calls;
};

std::vector<std::unique_ptr<CacheStore>>
localThenShared(const std::string &Directory,
                std::unique_ptr<CacheStore> Shared) {
  std::vector<std::unique_ptr<CacheStore>> Stores;
  Stores.push_back(createDirectoryStore(Directory, 1 << 20));
  Stores.push_back(std::move(Shared));
  return Stores;
}

TEST_F(ResultCacheTest, AnEntryFoundOnTheSharedStoreIsKeptLocally) {
  llvm::StringMap<std::string> Server;
  unsigned Calls = 0;
  std::string Key = ResultCache::key({"k"});
  ResultCache(
      localThenShared(path("machine-a"), std::make_unique<FakeSharedStore>(
                                             Server, /*Fails=*/false, Calls)))
      .store(Key, sample(), {Header});
  ASSERT_EQ(Server.size(), 1u);

  // Another machine: found on the server, then kept in its own directory.
  ResultCache Other(localThenShared(
      path("machine-b"),
      std::make_unique<FakeSharedStore>(Server, /*Fails=*/false, Calls)));
  ASSERT_TRUE(Other.lookup(Key));
  EXPECT_EQ(Other.stores(), 0u);
  unsigned Before = Calls;
  EXPECT_TRUE(ResultCache(path("machine-b"), 1 << 20).lookup(Key));
  EXPECT_EQ(Calls, Before);
}

TEST_F(ResultCacheTest, ASharedStoreThatFailsIsLeftAloneAfterOneWarning) {
  llvm::StringMap<std::string> Server;
  unsigned Calls = 0;
  ResultCache Cache(localThenShared(
      path("cache"),
      std::make_unique<FakeSharedStore>(Server, /*Fails=*/true, Calls)));
  std::vector<SetupMessage> Said;
  collectSetupMessages(&Said);
  for (const char *Name : {"a", "b", "c"}) {
    std::string Key = ResultCache::key({Name});
    EXPECT_FALSE(Cache.lookup(Key));
    Cache.store(Key, sample(), {Header});
  }
  collectSetupMessages(nullptr);
  EXPECT_EQ(Calls, 1u);
  ASSERT_EQ(Said.size(), 1u);
  EXPECT_EQ(Said[0].Text,
            "the remote result cache 'redis://cache:6379' failed (Connection "
            "refused): the run goes on without it; check the server, or leave "
            "out --remote-cache and GPUGUARD_REMOTE_CACHE");
  // The local directory still works.
  EXPECT_EQ(Cache.stores(), 3u);
  EXPECT_TRUE(Cache.lookup(ResultCache::key({"b"})));
}

TEST_F(ResultCacheTest, RemoteURLsAreCheckedBeforeUse) {
  for (llvm::StringRef Good :
       {"redis://cache", "redis://:pw@cache:6380/3", "redis://[::1]:6379",
        "http://cache:8080/gpuguard", "https://user:pw@cache.example.com"})
    EXPECT_TRUE(bool(createRemoteStore(Good))) << Good.str();
  for (auto [Bad, Why] :
       std::initializer_list<std::pair<llvm::StringRef, llvm::StringRef>>{
           {"cache:6379", "it has no scheme"},
           {"ftp://cache", "its scheme 'ftp' is neither redis nor http(s)"},
           {"redis://:pw@cache:0", "its port '0' is not a number"},
           {"redis://cache/db", "its path '/db' is not a database number"},
           {"http://", "it names no host"}}) {
    llvm::Expected<std::unique_ptr<CacheStore>> Store = createRemoteStore(Bad);
    ASSERT_FALSE(bool(Store)) << Bad.str();
    std::string Message = llvm::toString(Store.takeError());
    EXPECT_NE(Message.find(Why), std::string::npos) << Message;
    EXPECT_EQ(Message.find("pw"), std::string::npos) << Message;
  }
}

} // namespace
