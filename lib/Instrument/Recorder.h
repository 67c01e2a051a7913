//===--- Recorder.h - Runtime-check sites and the edits that insert them --===//
///
/// \file
/// In `gpuguard instrument`, each check hands the sites it matched to the
/// Recorder, together with the text edits that insert a runtime check there.
/// A site a check reports carries the location of its diagnostic; once the
/// file's findings are final (after NOLINT and filters), a flagged site is
/// kept only if that finding survived, so static findings and runtime checks
/// come from the same match and cannot drift apart. With --instrument=all,
/// checks also hand over the sites they matched but could not prove safe.
///
/// Edits are insertions around expressions of the main file (and callee
/// renames); they never add a line, so the copy keeps the original lines
/// after its `#line` directive, and each site's own file:line:col is written
/// into the site table the runtime reports from.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_INSTRUMENT_RECORDER_H
#define GPUGUARD_INSTRUMENT_RECORDER_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace gpuguard::instrument {

enum class InstrumentMode { Flagged, All };

/// Where a site's check runs.
enum class SiteSide { CudaDevice, CudaHost, TorchHost };

/// What the runtime confirms at a site: the list of
/// runtime/include/gpuguard/site_kinds.def, which the runtime's
/// `gpuguard::rt::SiteKind` is made from too.
enum class SiteKind : unsigned {
#define GPUGUARD_SITE_KIND(Name, Value, Side, EntryPoint, Message, Values)     \
  Name = Value,
#include "gpuguard/site_kinds.def"
};

SiteSide sideOf(SiteKind Kind);
bool isTorchKind(SiteKind Kind);

/// The opening of a call of the runtime function a site of \p Kind calls:
/// "::gpuguard::rt::checkIndex(".
std::string entryPointCall(SiteKind Kind);

/// The runtime's calls outside any site (runtime/include/gpuguard/hooks.def).
enum class RuntimeHook {
#define GPUGUARD_HOOK(Name) Name,
#include "gpuguard/hooks.def"
};

/// `::gpuguard::rt::<hook>(`, what the inserted code calls.
std::string hookCall(RuntimeHook Hook);

/// True when the runtime has a drop-in wrapper for the CUDA runtime
/// function \p Name (cudaMalloc, cudaDeviceSynchronize, ...).
bool hasRuntimeWrapper(llvm::StringRef Name);

/// What instrumented code calls in place of the CUDA runtime function
/// \p Name, called on line \p Line of the original file:
/// `::gpuguard::rt::cudaFree`, or `::gpuguard::rt::CalledAt<Line>::cudaMalloc`
/// for a wrapper that reports its call's line (nvcc joins a statement onto
/// one line, so the wrapper cannot find the line itself).
std::string runtimeWrapperCallee(llvm::StringRef Name, unsigned Line);

/// A site as the runtime reports it.
struct Site {
  std::string Check;
  SiteKind Kind;
  unsigned Line = 0, Column = 0;
  std::string Function;
  std::string What;
  /// Offset of the diagnostic this site confirms; none for a site that is
  /// instrumented only with --instrument=all.
  std::optional<unsigned> DiagnosticOffset;
  /// Another site this one names (an in-place write's saving op), or -1.
  int Related = -1;
};

/// A text edit of the main file: insert Prefix at Begin and Suffix at End,
/// after removing [Begin, Begin + Remove) when Remove is set (a callee
/// rename). The texts may hold placeholders that name the edit's site, filled
/// in once the kept sites are numbered: `@SITE@` becomes the runtime's
/// `SiteRef{key, n}` and `@SITEINFO@` the site's table entry.
struct Edit {
  unsigned Begin = 0, End = 0, Remove = 0;
  std::string Prefix, Suffix;
  /// The site the edit belongs to, or -1 for edits every copy gets (the
  /// allocation and synchronisation wrappers the runtime needs).
  int Site = -1;
};

/// What a file's instrumented copy is made from.
struct FileRecord {
  std::string Path;
  std::string Original;
  std::vector<Site> Sites;
  std::vector<Edit> Edits;
  /// Quoted includes, by offset of the file name token, with the absolute
  /// path they resolved to: the copy lives elsewhere.
  std::map<unsigned, std::pair<unsigned, std::string>> QuotedIncludes;
  bool HasCuda = false;
  bool HasTorch = false;
  /// Sites a check matched whose text is inside a macro or another file.
  unsigned Skipped = 0;
  /// Where skipSite() counted a site (expansion and spelling offsets), so
  /// that a site both CUDA sides match is counted once.
  std::set<std::pair<unsigned, unsigned>> SkippedAt;
};

/// A finding that survived filtering, to decide which flagged sites stay.
struct SurvivingFinding {
  std::string Check;
  unsigned Offset;
};

/// The rendered copy and what it holds.
struct RenderedFile {
  std::string Text;
  unsigned Sites = 0;
  unsigned Skipped = 0;
};

class Recorder {
public:
  explicit Recorder(InstrumentMode Mode) : Mode(Mode) {}

  /// The recorder of the run on this thread, or null outside
  /// `gpuguard instrument`.
  static Recorder *active();
  static void setActive(Recorder *R);

  InstrumentMode mode() const { return Mode; }
  bool instrumentsUnflagged() const { return Mode == InstrumentMode::All; }

  /// Adds (or finds, when the other CUDA side already added it) a site at
  /// \p Loc and returns its id, or -1 when \p Loc is not in the main file's
  /// own text. \p Flagged is the location of the check's diagnostic for it.
  int addSite(clang::ASTContext &Context, clang::SourceLocation Loc,
              SiteKind Kind, llvm::StringRef Check, llvm::StringRef What,
              const clang::Decl *Enclosing, clang::SourceLocation Flagged = {});
  void setRelated(int SiteId, int RelatedId);

  /// Wraps \p E in Prefix ... Suffix for \p SiteId. Returns false (and
  /// counts the site as skipped) when \p E's text is not the main file's.
  bool wrap(clang::ASTContext &Context, int SiteId, const clang::Expr *E,
            llvm::StringRef Prefix, llvm::StringRef Suffix);
  /// Wraps \p E in Prefix ... Suffix in every copy, whichever sites are
  /// kept: upkeep the runtime needs (registering a tensor's memory, updating
  /// the registry before a launch). Returns false when \p E's text is not
  /// the main file's.
  bool wrapAlways(clang::ASTContext &Context, const clang::Expr *E,
                  llvm::StringRef Prefix, llvm::StringRef Suffix);
  /// `::gpuguard::rt::torch::operand(@SITEINFO@, Index, Count, E)`.
  bool wrapTorchOperand(clang::ASTContext &Context, int SiteId,
                        const clang::Expr *E, unsigned Index, unsigned Count);
  /// Counts a site at \p Loc that a check matched but leaves out because its
  /// text is (partly) in a macro, once however many CUDA sides match it.
  void skipSite(clang::ASTContext &Context, clang::SourceLocation Loc);
  /// Replaces the callee name at \p NameLoc with \p Replacement in every copy.
  bool renameCallee(clang::ASTContext &Context, clang::SourceLocation NameLoc,
                    llvm::StringRef Replacement);
  /// Records a quoted include of the main file, so that the copy names the
  /// header by its absolute path.
  void addQuotedInclude(const clang::SourceManager &SM,
                        clang::SourceLocation FileNameLoc,
                        unsigned FileNameLength, llvm::StringRef ResolvedPath);
  void noteLanguage(const clang::ASTContext &Context);

  /// Takes the record of \p Path (absolute) and renders its copy: only sites
  /// whose finding is in \p Findings survive in flagged mode. Returns
  /// nothing when no record of the file exists (it failed to parse).
  std::optional<RenderedFile>
  render(llvm::StringRef Path, const std::vector<SurvivingFinding> &Findings);

private:
  FileRecord *recordFor(const clang::SourceManager &SM);
  /// The site \p SiteId (not -1) names, in its file's record.
  Site &siteOf(int SiteId);
  bool addWrap(clang::ASTContext &Context, int SiteId, const clang::Expr *E,
               llvm::StringRef Prefix, llvm::StringRef Suffix);
  std::optional<std::pair<unsigned, unsigned>>
  mainFileRange(clang::ASTContext &Context, clang::SourceRange Range);

  InstrumentMode Mode;
  std::map<std::string, FileRecord> Files;
  /// Site ids by (file, line, column, kind, check, what), across CUDA sides.
  std::map<std::tuple<std::string, unsigned, unsigned, unsigned, std::string,
                      std::string>,
           int>
      SiteIds;
  /// Site id -> (file, index in its record).
  std::vector<std::pair<std::string, unsigned>> SiteIndex;
};

/// The runtime's file key of \p Path: 64-bit FNV-1a of the absolute path.
uint64_t fileKey(llvm::StringRef Path);

} // namespace gpuguard::instrument

#endif // GPUGUARD_INSTRUMENT_RECORDER_H
