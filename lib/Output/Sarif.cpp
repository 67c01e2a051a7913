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

/// The first paragraph and the precision line of each check's docs page,
/// generated at configure time from docs/checks/<module>/<check>.md.
struct CheckDescription {
  const char *Check;
  const char *Summary;
  const char *Precision;
};
constexpr CheckDescription CheckDescriptions[] = {
#define GPUGUARD_CHECK_DESCRIPTION(Check, Summary, Precision)                  \
  {Check, Summary, Precision},
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

void writeRule(llvm::json::OStream &J, llvm::StringRef Id,
               llvm::StringRef DocsUrl) {
  J.object([&] {
    J.attribute("id", Id);
    J.attributeObject("shortDescription",
                      [&] { J.attribute("text", checkSummary(Id)); });
    std::string Help = checkDocsUrl(DocsUrl, Id);
    if (!Help.empty())
      J.attribute("helpUri", Help);
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

} // namespace

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
            });
          });
        });
        J.attribute("columnKind", "unicodeCodePoints");
        J.attributeArray("results", [&] {
          for (const Finding &F : Findings)
            writeResult(J, F, RuleIndex.lookup(F.Check));
        });
      });
    });
  });
  OS << "\n";
}

} // namespace gpuguard::output
