//===--- IncludeScan.cpp - Sources that include changed headers -----------===//

#include "Frontend/IncludeScan.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace gpuguard::frontend {
namespace {

/// \p Spelled without its leading `./` and `../` components: the part every
/// path it can resolve to ends with.
std::string resolvableSuffix(llvm::StringRef Spelled) {
  llvm::SmallString<128> Native(Spelled);
  llvm::sys::path::native(Native);
  llvm::StringRef Rest = Native;
  while (Rest.consume_front("./") || Rest.consume_front("../"))
    ;
  return Rest.str();
}

std::string absoluteIn(llvm::StringRef Directory, llvm::StringRef Path) {
  llvm::SmallString<256> Result;
  if (llvm::sys::path::is_absolute(Path)) {
    Result = Path;
  } else {
    Result = Directory;
    llvm::sys::path::append(Result, Path);
  }
  llvm::sys::fs::make_absolute(Result);
  llvm::sys::path::remove_dots(Result, /*remove_dot_dot=*/true);
  return std::string(Result);
}

} // namespace

bool isHeaderPath(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return Ext.empty() ||
         llvm::is_contained({".h", ".hh", ".hpp", ".hxx", ".h++", ".H", ".cuh",
                             ".inc", ".inl", ".ipp", ".tpp", ".tcc", ".def"},
                            Ext);
}

std::vector<std::string> scanIncludes(llvm::StringRef Text) {
  std::vector<std::string> Names;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    Line = Line.ltrim();
    if (!Line.consume_front("#"))
      continue;
    Line = Line.ltrim();
    if (!Line.consume_front("include_next") && !Line.consume_front("include") &&
        !Line.consume_front("import"))
      continue;
    Line = Line.ltrim();
    char Close = Line.consume_front("\"")  ? '"'
                 : Line.consume_front("<") ? '>'
                                           : '\0';
    size_t End = Line.find(Close);
    if (Close && End != llvm::StringRef::npos && End > 0)
      Names.push_back(Line.take_front(End).str());
  }
  return Names;
}

std::vector<std::string>
includeSearchDirs(const clang::tooling::CompileCommand &Command,
                  bool WithSystemDirs) {
  std::vector<std::string> Dirs;
  const std::vector<std::string> &Args = Command.CommandLine;
  llvm::SmallVector<llvm::StringRef, 5> Flags = {"--include-path", "-iquote",
                                                 "-I"};
  if (WithSystemDirs)
    Flags.append({"-isystem", "-idirafter"});
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    for (llvm::StringRef Flag : Flags) {
      if (!Arg.consume_front(Flag))
        continue;
      Arg.consume_front("=");
      if (Arg.empty() && I + 1 < Args.size())
        Arg = Args[++I];
      if (!Arg.empty())
        Dirs.push_back(absoluteIn(Command.Directory, Arg));
      break;
    }
  }
  return Dirs;
}

IncluderFinder::IncluderFinder(SpelledMatcher Matches)
    : Matches(std::move(Matches)) {}

IncluderFinder::IncluderFinder(std::vector<std::string> ChangedHeaders)
    : Matches([Changed = std::move(ChangedHeaders)](llvm::StringRef Spelled) {
        std::string Suffix = resolvableSuffix(Spelled);
        if (Suffix.empty())
          return false;
        return llvm::any_of(Changed, [&](llvm::StringRef Header) {
          return Header == Suffix ||
                 (Header.ends_with(Suffix) &&
                  llvm::sys::path::is_separator(
                      Header[Header.size() - Suffix.size() - 1]));
        });
      }) {}

bool IncluderFinder::includesMatch(llvm::StringRef File,
                                   llvm::ArrayRef<std::string> SearchDirs) {
  bool Incomplete = false;
  return visit(absoluteIn(".", File), SearchDirs, Incomplete);
}

bool IncluderFinder::visit(const std::string &File,
                           llvm::ArrayRef<std::string> SearchDirs,
                           bool &Incomplete) {
  // What a file includes depends on the directories searched.
  std::string Key = File;
  for (const std::string &Dir : SearchDirs)
    Key += '\0' + Dir;
  auto [It, Inserted] = States.try_emplace(Key, State::Visiting);
  if (!Inserted) {
    if (It->second == State::Visiting)
      Incomplete = true;
    return It->second == State::Includes;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(File);
  std::vector<std::string> Names;
  if (Buffer)
    Names = scanIncludes((*Buffer)->getBuffer());
  llvm::StringRef Directory = llvm::sys::path::parent_path(File);
  bool Includes = false, SubtreeIncomplete = false;
  for (const std::string &Name : Names) {
    if (Matches(Name)) {
      Includes = true;
      break;
    }
    std::vector<std::string> Places = {absoluteIn(Directory, Name)};
    for (const std::string &Dir : SearchDirs)
      Places.push_back(absoluteIn(Dir, Name));
    for (const std::string &Place : Places)
      if (llvm::sys::fs::is_regular_file(Place) &&
          visit(Place, SearchDirs, SubtreeIncomplete)) {
        Includes = true;
        break;
      }
    if (Includes)
      break;
  }
  // A file found not to include a changed header while one of the files
  // above it was still being scanned (an include cycle) may yet include one
  // through that file: it is looked at again when reached another way.
  // (`It` may be stale: the scan of the includes added entries.)
  if (SubtreeIncomplete && !Includes) {
    States.erase(Key);
    Incomplete = true;
  } else {
    States[Key] = Includes ? State::Includes : State::DoesNotInclude;
  }
  return Includes;
}

} // namespace gpuguard::frontend
