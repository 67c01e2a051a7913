//===--- Sarif.cpp - SARIF 2.1.0 output -----------------------------------===//

#include "Output/Sarif.h"
#include "Output/Fingerprint.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include <map>
#include <set>

namespace gpuguard::output {
namespace {

/// The first paragraph, the precision line and the text of each check's
/// docs page, generated at configure time from
/// docs/checks/<module>/<check>.md.
struct CheckDescription {
  const char *Check;
  const char *Summary;
  const char *Precision;
  const char *Page;
};
constexpr CheckDescription CheckDescriptions[] = {
#define GPUGUARD_CHECK_DESCRIPTION(Check, Summary, Precision, Page)            \
  {Check, Summary, Precision, Page},
#include "Output/CheckDescriptions.inc"
#undef GPUGUARD_CHECK_DESCRIPTION
};

constexpr llvm::StringLiteral RootBaseId = "%SRCROOT%";
constexpr llvm::StringLiteral CompilerPrefix = "clang-diagnostic-";

void writeArtifactLocation(llvm::json::OStream &J, const Location &Where) {
  J.attributeObject("artifactLocation", [&] {
    if (Where.InsideRoot) {
      J.attribute("uri", percentEncodePath(Where.RelativePath));
      J.attribute("uriBaseId", RootBaseId);
    } else {
      J.attribute("uri", fileUri(Where.Path));
    }
  });
}

void writePhysicalLocation(llvm::json::OStream &J, const Location &Where) {
  J.attributeObject("physicalLocation", [&] {
    writeArtifactLocation(J, Where);
    if (Where.Line)
      J.attributeObject("region", [&] {
        J.attribute("startLine", Where.Line);
        J.attribute("startColumn", Where.Column);
      });
  });
}

void writeMessage(llvm::json::OStream &J, llvm::StringRef Text) {
  J.attributeObject("message", [&] { J.attribute("text", Text); });
}

void writeFixes(llvm::json::OStream &J, const Finding &F) {
  // One artifactChange per file, in path order.
  std::map<std::string, std::vector<const Edit *>> ByFile;
  for (const Edit &E : F.Fixes)
    if (E.Begin.hasFile() && E.Begin.Line && E.End.Line)
      ByFile[E.Begin.Path].push_back(&E);
  if (ByFile.empty())
    return;
  J.attributeArray("fixes", [&] {
    J.object([&] {
      J.attributeArray("artifactChanges", [&] {
        for (const auto &File : ByFile)
          J.object([&] {
            writeArtifactLocation(J, File.second.front()->Begin);
            J.attributeArray("replacements", [&] {
              for (const Edit *E : File.second)
                J.object([&] {
                  J.attributeObject("deletedRegion", [&] {
                    J.attribute("startLine", E->Begin.Line);
                    J.attribute("startColumn", E->Begin.Column);
                    J.attribute("endLine", E->End.Line);
                    J.attribute("endColumn", E->End.Column);
                  });
                  J.attributeObject("insertedContent",
                                    [&] { J.attribute("text", E->Text); });
                });
            });
          });
      });
    });
  });
}

void writeResult(llvm::json::OStream &J, const Finding &F, unsigned RuleIndex) {
  J.object([&] {
    J.attribute("ruleId", F.Check);
    J.attribute("ruleIndex", RuleIndex);
    J.attribute("level", F.IsError ? "error" : "warning");
    writeMessage(J, F.Message);
    if (F.Where.hasFile())
      J.attributeArray("locations", [&] {
        J.object([&] { writePhysicalLocation(J, F.Where); });
      });
    if (!F.Fingerprint.empty())
      J.attributeObject("partialFingerprints",
                        [&] { J.attribute(FingerprintKey, F.Fingerprint); });
    if (!F.Notes.empty())
      J.attributeArray("relatedLocations", [&] {
        for (size_t I = 0; I < F.Notes.size(); ++I)
          J.object([&] {
            J.attribute("id", static_cast<int64_t>(I));
            if (F.Notes[I].Where.hasFile())
              writePhysicalLocation(J, F.Notes[I].Where);
            writeMessage(J, F.Notes[I].Message);
          });
      });
    writeFixes(J, F);
  });
}

void writeText(llvm::json::OStream &J, llvm::StringRef Key,
               llvm::StringRef Text) {
  J.attributeObject(Key, [&] { J.attribute("text", Text); });
}

void writeRule(llvm::json::OStream &J, llvm::StringRef Id,
               llvm::StringRef DocsUrl) {
  J.object([&] {
    J.attribute("id", Id);
    std::string Summary = checkSummary(Id);
    writeText(J, "shortDescription", firstSentence(Summary));
    writeText(J, "fullDescription", Summary);
    std::string Help = checkHelpMarkdown(DocsUrl, Id);
    if (!Help.empty())
      J.attributeObject("help", [&] {
        J.attribute("text", Help);
        J.attribute("markdown", Help);
      });
    if (!DocsUrl.empty())
      if (std::string Page = checkDocsUrl(DocsUrl, Id); !Page.empty())
        J.attribute("helpUri", Page);
    J.attributeObject("defaultConfiguration", [&] {
      J.attribute("level",
                  Id.starts_with(CompilerPrefix) ? "error" : "warning");
    });
    // How sure the rule is, as CodeQL's rule metadata says it, so that a
    // code-scanning service can weigh or filter its results.
    llvm::StringRef Precision = checkPrecision(Id);
    if (!Precision.empty())
      J.attributeObject("properties", [&] {
        J.attribute("precision", Precision);
        J.attribute("problem.severity", "warning");
      });
  });
}

/// The sections of a check's page that its SARIF help carries: what a
/// reader of one alert needs, not the measurements and the option tables.
bool isHelpSection(llvm::StringRef Title) {
  return Title == "Why it matters" || Title == "Example" ||
         Title == "Suppressing a finding";
}

/// "a/b/../c" as "a/c".
std::string normalizeUrlPath(llvm::StringRef Path) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  llvm::SmallVector<llvm::StringRef, 8> Kept;
  Path.split(Parts, '/');
  for (llvm::StringRef Part : Parts) {
    if (Part == ".")
      continue;
    if (Part == ".." && !Kept.empty() && Kept.back() != "..") {
      Kept.pop_back();
      continue;
    }
    Kept.push_back(Part);
  }
  return llvm::join(Kept, "/");
}

/// \p Line with each Markdown link whose target is relative to the page
/// made absolute under \p DocsUrl, or, without a docs URL, replaced by its
/// text: a relative link means nothing in a code-scanning alert.
std::string rewriteRelativeLinks(llvm::StringRef Line, llvm::StringRef DocsUrl,
                                 llvm::StringRef PageDir,
                                 llvm::StringRef PageUrl) {
  std::string Out;
  while (!Line.empty()) {
    size_t Open = Line.find('[');
    size_t Close = Open == llvm::StringRef::npos ? llvm::StringRef::npos
                                                 : Line.find("](", Open);
    size_t End = Close == llvm::StringRef::npos ? llvm::StringRef::npos
                                                : Line.find(')', Close + 2);
    if (End == llvm::StringRef::npos) {
      Out += Line;
      break;
    }
    llvm::StringRef Text = Line.slice(Open + 1, Close);
    llvm::StringRef Target = Line.slice(Close + 2, End);
    Out += Line.take_front(Open);
    Line = Line.drop_front(End + 1);
    if (Text.contains('[') || Target.contains(' ')) {
      // Not a link (an array or a lambda in prose): keep it as written.
      Out += ("[" + Text + "](" + Target + ")").str();
      continue;
    }
    bool Absolute = Target.contains("://") || Target.starts_with("mailto:");
    if (Absolute) {
      Out += ("[" + Text + "](" + Target + ")").str();
    } else if (DocsUrl.empty()) {
      Out += Text;
    } else {
      std::string Url =
          Target.starts_with("#")
              ? (PageUrl + Target).str()
              : (DocsUrl + normalizeUrlPath((PageDir + Target).str())).str();
      Out += ("[" + Text + "](" + Url + ")").str();
    }
  }
  return Out;
}

} // namespace

std::string firstSentence(llvm::StringRef Paragraph) {
  // A sentence ends at ". " before a capital letter, which abbreviations
  // ("e.g. a") and decimals do not match.
  for (size_t I = Paragraph.find(". "); I != llvm::StringRef::npos;
       I = Paragraph.find(". ", I + 1))
    if (I + 2 < Paragraph.size() && llvm::isUpper(Paragraph[I + 2]))
      return Paragraph.take_front(I + 1).str();
  return Paragraph.str();
}

std::string helpFromPage(llvm::StringRef Page, llvm::StringRef DocsUrl,
                         llvm::StringRef PagePath) {
  llvm::SmallVector<llvm::StringRef, 256> Lines;
  Page.split(Lines, '\n');
  std::string PageDir = PagePath.contains('/')
                            ? PagePath.take_front(PagePath.rfind('/') + 1).str()
                            : "";
  std::string PageUrl = DocsUrl.empty() ? "" : (DocsUrl + PagePath).str();
  std::string Help;
  // The first paragraph after the title, then the chosen sections, each up
  // to the next second-level heading outside a code block.
  enum { Title, Summary, Skipping, Taking } State = Title;
  bool InCode = false;
  for (llvm::StringRef Line : Lines) {
    bool Fence = Line.ltrim().starts_with("```");
    if (!InCode && Line.starts_with("## ")) {
      State = isHelpSection(Line.drop_front(3).trim()) ? Taking : Skipping;
      if (State == Taking)
        Help += "\n";
    } else if (State == Title) {
      if (Line.starts_with("# "))
        State = Summary;
      continue;
    } else if (State == Summary && Line.trim().empty()) {
      if (!Help.empty())
        State = Skipping;
      continue;
    }
    if (Fence)
      InCode = !InCode;
    if (State == Skipping)
      continue;
    Help += InCode || Fence
                ? Line.str()
                : rewriteRelativeLinks(Line, DocsUrl, PageDir, PageUrl);
    Help += '\n';
  }
  if (!PageUrl.empty())
    Help += "\nFull documentation: " + PageUrl + "\n";
  return Help;
}

std::string checkHelpMarkdown(llvm::StringRef DocsUrl, llvm::StringRef Check) {
  for (const CheckDescription &Description : CheckDescriptions)
    if (Check == Description.Check) {
      llvm::StringRef Module = Check.split('-').first;
      return helpFromPage(Description.Page, DocsUrl,
                          ("checks/" + Module + "/" + Check + ".md").str());
    }
  return "";
}

std::string percentEncodePath(llvm::StringRef Path) {
  std::string Encoded;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' ||
        C == '/') {
      Encoded += C;
      continue;
    }
    Encoded += '%';
    Encoded += llvm::hexdigit(C >> 4, /*LowerCase=*/false);
    Encoded += llvm::hexdigit(C & 15, /*LowerCase=*/false);
  }
  return Encoded;
}

std::string fileUri(llvm::StringRef AbsolutePath) {
  return "file://" + percentEncodePath(AbsolutePath);
}

std::string checkDocsUrl(llvm::StringRef DocsUrl, llvm::StringRef Check) {
  if (Check.starts_with(CompilerPrefix) || !Check.contains('-'))
    return "";
  llvm::StringRef Module = Check.split('-').first;
  return (DocsUrl + "checks/" + Module + "/" + Check + ".md").str();
}

llvm::StringRef checkPrecision(llvm::StringRef Check) {
  for (const CheckDescription &Description : CheckDescriptions)
    if (Check == Description.Check)
      return Description.Precision;
  return "";
}

std::string checkSummary(llvm::StringRef Check) {
  for (const CheckDescription &Description : CheckDescriptions)
    if (Check == Description.Check)
      return Description.Summary;
  if (Check.consume_front(CompilerPrefix))
    return ("Clang's '" + Check +
            "' diagnostic, reported while parsing the file")
        .str();
  return Check.str();
}

void writeSarif(llvm::raw_ostream &OS, llvm::ArrayRef<Finding> Findings,
                llvm::ArrayRef<std::string> RuleIds, const SarifTool &Tool,
                llvm::ArrayRef<NotAnalysed> Unanalysed) {
  std::set<std::string> Rules(RuleIds.begin(), RuleIds.end());
  for (const Finding &F : Findings)
    Rules.insert(F.Check);
  llvm::StringMap<unsigned> RuleIndex;
  for (const std::string &Id : Rules)
    RuleIndex.try_emplace(Id, RuleIndex.size());

  // Results stay inside %SRCROOT%, where a code-scanning service can show
  // them; a finding in a toolkit header or with no file is a notification.
  // Past the services' limit on results per run, errors are kept first.
  std::vector<const Finding *> Results;
  std::vector<const Finding *> Outside;
  for (const Finding &F : Findings)
    (F.Where.hasFile() && F.Where.InsideRoot ? Results : Outside).push_back(&F);
  size_t LeftOut = 0;
  if (Results.size() > MaxSarifResults) {
    size_t Errors =
        llvm::count_if(Results, [](const Finding *F) { return F->IsError; });
    size_t WarningsKept =
        MaxSarifResults - std::min<size_t>(Errors, MaxSarifResults);
    size_t ErrorsKept = MaxSarifResults - WarningsKept;
    std::vector<const Finding *> Kept;
    for (const Finding *F : Results)
      if (F->IsError ? ErrorsKept && ErrorsKept--
                     : WarningsKept && WarningsKept--)
        Kept.push_back(F);
    LeftOut = Results.size() - Kept.size();
    Results = std::move(Kept);
  }

  llvm::json::OStream J(OS, /*IndentSize=*/2);
  J.object([&] {
    J.attribute("$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/"
                           "errata01/os/schemas/sarif-schema-2.1.0.json");
    J.attribute("version", "2.1.0");
    J.attributeArray("runs", [&] {
      J.object([&] {
        J.attributeObject("tool", [&] {
          J.attributeObject("driver", [&] {
            J.attribute("name", "gpuguard");
            J.attribute("version", Tool.Version);
            if (!Tool.DocsUrl.empty())
              J.attribute("informationUri", Tool.DocsUrl + "index.md");
            J.attributeArray("rules", [&] {
              for (const std::string &Id : Rules)
                writeRule(J, Id, Tool.DocsUrl);
            });
          });
        });
        J.attributeObject("originalUriBaseIds", [&] {
          J.attributeObject(RootBaseId, [&] {
            std::string Root = fileUri(Tool.ProjectRoot);
            if (!llvm::StringRef(Root).ends_with("/"))
              Root += '/';
            J.attribute("uri", Root);
          });
        });
        J.attributeArray("invocations", [&] {
          J.object([&] {
            J.attribute("executionSuccessful", Unanalysed.empty());
            J.attributeArray("toolExecutionNotifications", [&] {
              for (const NotAnalysed &File : Unanalysed)
                J.object([&] {
                  J.attribute("level", "error");
                  writeMessage(J, File.Message);
                  J.attributeArray("locations", [&] {
                    J.object([&] { writePhysicalLocation(J, File.Where); });
                  });
                });
              for (const Finding *F : Outside)
                J.object([&] {
                  J.attribute("level", F->IsError ? "error" : "warning");
                  writeMessage(J, F->Message);
                  if (F->Where.hasFile())
                    J.attributeArray("locations", [&] {
                      J.object([&] { writePhysicalLocation(J, F->Where); });
                    });
                  J.attributeObject("associatedRule", [&] {
                    J.attribute("id", F->Check);
                    J.attribute("index", RuleIndex.lookup(F->Check));
                  });
                });
              if (LeftOut)
                J.object([&] {
                  J.attribute("level", "warning");
                  writeMessage(
                      J, std::to_string(LeftOut) +
                             " finding(s) left out of this log: code scanning "
                             "rejects a run of more than " +
                             std::to_string(MaxSarifResults) +
                             " results; hide known findings with --baseline "
                             "or split the files with --shard");
                });
            });
          });
        });
        J.attribute("columnKind", "unicodeCodePoints");
        J.attributeArray("results", [&] {
          for (const Finding *F : Results)
            writeResult(J, *F, RuleIndex.lookup(F->Check));
        });
      });
    });
  });
  OS << "\n";
}

} // namespace gpuguard::output
