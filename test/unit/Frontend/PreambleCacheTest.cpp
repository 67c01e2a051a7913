//===--- PreambleCacheTest.cpp --------------------------------------------===//

#include "Frontend/PreambleCache.h"
#include "TemporaryDirectoryTest.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Serialization/PCHContainerOperations.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <chrono>
#include <optional>

using namespace gpuguard::frontend;
namespace fs = llvm::sys::fs;

namespace {

/// Sources and a preamble directory in a fresh temporary directory.
class PreambleCacheTest : public gpuguard::test::TemporaryDirectoryTest {
protected:
  void SetUp() override {
    TemporaryDirectoryTest::SetUp();
    Cache.emplace(path("preambles"), "test", uint64_t(1) << 30);
  }

  /// The C++ compile of \p Relative, as the driver hands it to a parse.
  std::shared_ptr<clang::CompilerInvocation>
  invocation(llvm::StringRef Relative, std::vector<std::string> Extra = {}) {
    auto Invocation = std::make_shared<clang::CompilerInvocation>();
    clang::DiagnosticOptions DiagOpts;
    clang::TextDiagnosticBuffer Buffer;
    clang::DiagnosticsEngine Diags(clang::DiagnosticIDs::create(), DiagOpts,
                                   &Buffer, /*ShouldOwnClient=*/false);
    Extra.insert(Extra.end(),
                 {"-xc++", "-std=c++17", "-fsyntax-only", path(Relative)});
    std::vector<const char *> Args;
    for (const std::string &Arg : Extra)
      Args.push_back(Arg.c_str());
    clang::CompilerInvocation::CreateFromArgs(*Invocation, Args, Diags);
    return Invocation;
  }

  /// \p Into's preamble through \p Store, on the real file system.
  static std::optional<PreambleUse>
  attachTo(PreambleCache &Store, clang::CompilerInvocation &Into,
           bool CompilerWarningsShown = false) {
    return Store.attach(Into, llvm::vfs::getRealFileSystem(),
                        std::make_shared<clang::PCHContainerOperations>(),
                        CompilerWarningsShown);
  }

  std::optional<PreambleUse> attach(llvm::StringRef Relative,
                                    std::vector<std::string> Extra = {}) {
    return attachTo(*Cache, *invocation(Relative, std::move(Extra)));
  }

  /// The precompiled headers and entries in the directory.
  std::pair<unsigned, unsigned> stored() {
    unsigned Headers = 0, Entries = 0;
    std::error_code EC;
    for (fs::directory_iterator It(path("preambles"), EC), End;
         It != End && !EC; It.increment(EC)) {
      Headers += llvm::StringRef(It->path()).ends_with(".pch");
      Entries += llvm::StringRef(It->path()).ends_with(".entry");
    }
    return {Headers, Entries};
  }

  std::optional<PreambleCache> Cache;
};

TEST_F(PreambleCacheTest, BuildsOnceAndLoadsAfterwards) {
  std::string Header = write("src/shapes.h", "int area(int w, int h);\n"
                                             "inline int twice(int x) {\n"
                                             "  return 2 * x;\n"
                                             "}\n");
  write("src/a.cpp", "#include \"shapes.h\"\nint a() { return twice(1); }\n");

  std::shared_ptr<clang::CompilerInvocation> Cold = invocation("src/a.cpp");
  std::optional<PreambleUse> First = attachTo(*Cache, *Cold);
  ASSERT_TRUE(First);
  EXPECT_EQ(stored(), std::make_pair(1u, 1u));
  fs::UniqueID Built;
  ASSERT_FALSE(
      fs::getUniqueID(Cold->getPreprocessorOpts().ImplicitPCHInclude, Built));
  // The user header's two declarations, for the checks to traverse.
  EXPECT_EQ(First->UserDeclIDs.size(), 2u);
  EXPECT_TRUE(llvm::is_contained(First->Dependencies, Header));

  // The file's body changes, its preamble does not: loaded, not built.
  write("src/a.cpp", "#include \"shapes.h\"\nint a() { return twice(2); }\n");
  std::shared_ptr<clang::CompilerInvocation> Again = invocation("src/a.cpp");
  std::optional<PreambleUse> Second = attachTo(*Cache, *Again);
  ASSERT_TRUE(Second);
  EXPECT_EQ(stored(), std::make_pair(1u, 1u));
  const clang::PreprocessorOptions &Options = Again->getPreprocessorOpts();
  EXPECT_TRUE(llvm::StringRef(Options.ImplicitPCHInclude)
                  .starts_with(path("preambles")));
  EXPECT_EQ(Options.PrecompiledPreambleBytes.first,
            llvm::StringRef("#include \"shapes.h\"\n").size());
  EXPECT_FALSE(Options.UsePredefines);
  // The same file, not one built again and renamed over it.
  fs::UniqueID Loaded;
  ASSERT_FALSE(fs::getUniqueID(Options.ImplicitPCHInclude, Loaded));
  EXPECT_EQ(Built, Loaded);
}

TEST_F(PreambleCacheTest, TheLeadingIncludesAreSharedByADirectory) {
  write("src/shapes.h", "int area(int w, int h);\n");
  write("src/a.cpp", "#include \"shapes.h\"\nint a() { return 1; }\n");
  write("src/b.cpp", "// b\n#include \"shapes.h\"\nint b() { return 2; }\n");
  write("src/c.cpp", "/* c */\n#include \"shapes.h\"\nint c() { return 3; }\n");
  write("src/d.cpp", "#include \"shapes.h\"\n#define SIDE 2\nint d();\n");
  for (const char *File : {"src/a.cpp", "src/b.cpp", "src/c.cpp", "src/d.cpp"})
    ASSERT_TRUE(attach(File)) << File;
  // The same #include lines, whatever the comments; the macro after them
  // is left to each file's parse.
  EXPECT_EQ(stored(), std::make_pair(1u, 1u));
  std::shared_ptr<clang::CompilerInvocation> D = invocation("src/d.cpp");
  ASSERT_TRUE(attachTo(*Cache, *D));
  EXPECT_EQ(D->getPreprocessorOpts().PrecompiledPreambleBytes.first,
            llvm::StringRef("#include \"shapes.h\"\n").size());
  // A macro first: no run of #include lines to precompile.
  write("src/e.cpp", "#define SIDE 2\n#include \"shapes.h\"\nint e();\n");
  EXPECT_FALSE(attach("src/e.cpp"));
  EXPECT_EQ(stored(), std::make_pair(1u, 1u));
}

TEST_F(PreambleCacheTest, AngledIncludesAreSharedAcrossDirectories) {
  write("include/shapes.h", "int area(int w, int h);\n");
  write("x/a.cpp", "#include <shapes.h>\nint a() { return 1; }\n");
  write("y/b.cpp", "#include <shapes.h>\nint b() { return 2; }\n");
  write("y/c.cpp", "#include \"../include/shapes.h\"\nint c();\n");
  write("z/d.cpp", "#include \"../include/shapes.h\"\nint d();\n");
  std::string Include = "-I" + path("include");
  for (const char *File : {"x/a.cpp", "y/b.cpp", "y/c.cpp", "z/d.cpp"})
    ASSERT_TRUE(attach(File, {Include})) << File;
  // a and b; c and d are quoted, searched from their own directories.
  EXPECT_EQ(stored(), std::make_pair(3u, 3u));
  // Other flags, another preamble.
  ASSERT_TRUE(attach("x/a.cpp", {Include, "-DSIDE=2"}));
  EXPECT_EQ(stored(), std::make_pair(4u, 4u));
}

TEST_F(PreambleCacheTest, AChangedHeaderBuildsItAgain) {
  write("src/shapes.h", "int area(int w, int h);\n");
  write("src/a.cpp", "#include \"shapes.h\"\nint a() { return 1; }\n");
  ASSERT_TRUE(attach("src/a.cpp"));
  write("src/shapes.h", "int area(int w, int h);\nint volume(int);\n");
  std::optional<PreambleUse> Rebuilt = attach("src/a.cpp");
  ASSERT_TRUE(Rebuilt);
  EXPECT_EQ(Rebuilt->UserDeclIDs.size(), 2u);
  EXPECT_EQ(stored(), std::make_pair(1u, 1u));
}

TEST_F(PreambleCacheTest, APreambleThatWarnsKeepsWhatItSaid) {
  write("src/old.h", "#warning \"old.h is deprecated\"\n");
  write("src/a.cpp", "#include \"old.h\"\nint a() { return 1; }\n");
  for (int Run = 0; Run < 2; ++Run) {
    std::optional<PreambleUse> Use = attach("src/a.cpp");
    ASSERT_TRUE(Use);
    ASSERT_EQ(Use->Diagnostics.size(), 1u);
    EXPECT_EQ(Use->Diagnostics[0].Message, "\"old.h is deprecated\"");
    EXPECT_EQ(Use->Diagnostics[0].File, path("src/old.h"));
    EXPECT_EQ(Use->Diagnostics[0].Line, 1u);
    EXPECT_EQ(Use->Diagnostics[0].Column, 2u);
  }
  EXPECT_EQ(stored(), std::make_pair(1u, 1u));
  // Where compiler warnings may be shown, the file's own parse says it.
  std::shared_ptr<clang::CompilerInvocation> Invocation =
      invocation("src/a.cpp");
  EXPECT_FALSE(attachTo(*Cache, *Invocation, /*CompilerWarningsShown=*/true));
  EXPECT_TRUE(Invocation->getPreprocessorOpts().ImplicitPCHInclude.empty());
}

TEST_F(PreambleCacheTest, APreambleWithAnErrorIsNotUsed) {
  write("src/a.cpp", "#include \"missing.h\"\nint a() { return 1; }\n");
  std::shared_ptr<clang::CompilerInvocation> Invocation =
      invocation("src/a.cpp");
  EXPECT_FALSE(attachTo(*Cache, *Invocation));
  EXPECT_TRUE(Invocation->getPreprocessorOpts().ImplicitPCHInclude.empty());
  // Remembered, without a header, so that the next run does not build it.
  EXPECT_EQ(stored(), std::make_pair(0u, 1u));
  EXPECT_FALSE(attach("src/a.cpp"));
  EXPECT_EQ(stored(), std::make_pair(0u, 1u));
}

TEST_F(PreambleCacheTest, NothingToPrecompile) {
  write("src/a.cpp", "int a() { return 1; }\n");
  EXPECT_FALSE(attach("src/a.cpp"));
  EXPECT_EQ(stored(), std::make_pair(0u, 0u));
}

TEST_F(PreambleCacheTest, AnUnwritableDirectoryIsAMiss) {
  write("src/shapes.h", "int area(int w, int h);\n");
  write("src/a.cpp", "#include \"shapes.h\"\nint a() { return 1; }\n");
  write("file", "");
  PreambleCache Unwritable(path("file/preambles"), "test", uint64_t(1) << 30);
  std::shared_ptr<clang::CompilerInvocation> Invocation =
      invocation("src/a.cpp");
  EXPECT_FALSE(attachTo(Unwritable, *Invocation));
  EXPECT_TRUE(Invocation->getPreprocessorOpts().ImplicitPCHInclude.empty());
}

TEST_F(PreambleCacheTest, TheLeastRecentlyUsedGoFirst) {
  write("src/shapes.h", "int area(int w, int h);\n");
  write("src/solids.h", "int volume(int w, int h, int d);\n");
  write("src/a.cpp", "#include \"shapes.h\"\nint a();\n");
  write("src/b.cpp", "#include \"solids.h\"\nint b();\n");
  PreambleCache Small(path("preambles"), "test", /*SizeLimit=*/1);
  for (const char *File : {"src/a.cpp", "src/b.cpp"}) {
    std::shared_ptr<clang::CompilerInvocation> Invocation = invocation(File);
    ASSERT_TRUE(attachTo(Small, *Invocation));
  }
  // Each store over the limit drops all but what it just stored.
  EXPECT_EQ(stored(), std::make_pair(1u, 1u));
}

TEST_F(PreambleCacheTest, WhatAKilledRunLeftGoesAfterAnHour) {
  write("src/shapes.h", "int area(int w, int h);\n");
  write("src/solids.h", "int volume(int w, int h, int d);\n");
  write("src/a.cpp", "#include \"shapes.h\"\nint a();\n");
  write("src/b.cpp", "#include \"solids.h\"\nint b();\n");
  std::shared_ptr<clang::CompilerInvocation> First = invocation("src/a.cpp");
  ASSERT_TRUE(attachTo(*Cache, *First));
  // A half-written header two hours old, and a stored one of the same age.
  std::string Stale = write("preambles/0123-abcdefgh.tmp", "partial");
  auto TwoHoursAgo = std::chrono::system_clock::now() - std::chrono::hours(2);
  for (const std::string &File :
       {Stale, First->getPreprocessorOpts().ImplicitPCHInclude}) {
    int FD;
    ASSERT_FALSE(
        fs::openFileForReadWrite(File, FD, fs::CD_OpenExisting, fs::OF_None));
    fs::setLastAccessAndModificationTime(FD, TwoHoursAgo);
    llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  }
  // The next store sweeps the leftover and keeps the entry's header.
  std::shared_ptr<clang::CompilerInvocation> Second = invocation("src/b.cpp");
  ASSERT_TRUE(attachTo(*Cache, *Second));
  EXPECT_FALSE(fs::exists(Stale));
  EXPECT_EQ(stored(), std::make_pair(2u, 2u));
}

} // namespace
