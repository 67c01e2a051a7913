//===--- ChangedTranslationUnitsTest.cpp ----------------------------------===//

#include "Driver/ChangedTranslationUnits.h"
#include "TemporaryDirectoryTest.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace gpuguard;
using clang::tooling::JSONCompilationDatabase;

namespace {

using Files = std::vector<std::string>;

/// A small project in a fresh temporary directory, with a compile database
/// that lists its sources.
class ChangedTranslationUnitsTest
    : public gpuguard::test::TemporaryDirectoryTest {
protected:
  /// A database compiling each of \p Sources with `-Iinclude`.
  std::unique_ptr<JSONCompilationDatabase> database(const Files &Sources) {
    std::string Json = "[";
    for (const std::string &Source : Sources)
      Json += std::string(Json.size() > 1 ? "," : "") + "{\"directory\": \"" +
              std::string(Dir) + "\", \"file\": \"" + path(Source) +
              "\", \"command\": \"clang++ -Iinclude -c " + Source + "\"}";
    Json += "]";
    std::string Error;
    std::unique_ptr<JSONCompilationDatabase> Database =
        JSONCompilationDatabase::loadFromBuffer(
            Json, Error, clang::tooling::JSONCommandLineSyntax::Gnu);
    EXPECT_TRUE(Database) << Error;
    return Database;
  }
};

TEST_F(ChangedTranslationUnitsTest, ChangedSourcesWithoutHeadersAreChecked) {
  write("a.cpp", "int a;\n");
  write("b.cu", "int b;\n");
  auto Database = database({"a.cpp", "b.cu", "c.cu"});
  write("c.cu", "int c;\n");
  EXPECT_EQ(changedTranslationUnits({path("a.cpp"), path("b.cu"),
                                     path("README.md"), path("CMakeLists.txt")},
                                    Dir, Database.get(),
                                    /*CandidatesFromDatabase=*/true),
            Files({path("a.cpp"), path("b.cu")}));
}

TEST_F(ChangedTranslationUnitsTest, IncludersOfAChangedHeaderAreChecked) {
  write("include/util.cuh", "inline int util() { return 1; }\n");
  write("include/wrapper.h", "#include \"util.cuh\"\n");
  write("kernel.cu", "#include \"util.cuh\"\n");
  write("deep.cu", "#include <wrapper.h>\n");
  write("plain.cu", "int plain;\n");
  write("changed.cu", "#include \"util.cuh\"\nint changed;\n");
  write("sub/local.h", "int local;\n");
  write("sub/local.cu", "#include \"local.h\"\n");
  auto Database = database({"kernel.cu", "deep.cu", "plain.cu", "changed.cu",
                            "sub/local.cu", "gone.cu"});
  // A changed `.cuh` is checked itself, and a changed source that includes
  // the header is checked once.
  EXPECT_EQ(
      changedTranslationUnits({path("include/util.cuh"), path("changed.cu")},
                              Dir, Database.get(),
                              /*CandidatesFromDatabase=*/true),
      Files({path("changed.cu"), path("deep.cu"), path("include/util.cuh"),
             path("kernel.cu")}));
  EXPECT_EQ(changedTranslationUnits({path("sub/local.h")}, Dir, Database.get(),
                                    /*CandidatesFromDatabase=*/true),
            Files({path("sub/local.cu")}));
  EXPECT_EQ(changedTranslationUnits({path("include/unused.h")}, Dir,
                                    Database.get(),
                                    /*CandidatesFromDatabase=*/true),
            Files());
}

TEST_F(ChangedTranslationUnitsTest, CandidatesComeFromTheDatabaseOfMinusP) {
  write("include/util.cuh", "inline int util() { return 1; }\n");
  write("kernel.cu", "#include \"util.cuh\"\n");
  write("unlisted.cu", "#include \"include/util.cuh\"\n");
  auto Database = database({"kernel.cu"});
  Files Changed = {path("include/util.cuh")};
  // With -p, only the files the database lists are candidates.
  EXPECT_EQ(changedTranslationUnits(Changed, Dir, Database.get(),
                                    /*CandidatesFromDatabase=*/true),
            Files({path("include/util.cuh"), path("kernel.cu")}));
  // Otherwise every source of the project is one.
  EXPECT_EQ(changedTranslationUnits(Changed, Dir, Database.get(),
                                    /*CandidatesFromDatabase=*/false),
            Files({path("include/util.cuh"), path("kernel.cu"),
                   path("unlisted.cu")}));
  EXPECT_EQ(changedTranslationUnits(Changed, Dir, /*Database=*/nullptr,
                                    /*CandidatesFromDatabase=*/false),
            Files({path("include/util.cuh"), path("kernel.cu"),
                   path("unlisted.cu")}));
}

} // namespace
