//===--- GitHubAnnotations.cpp - GitHub Actions workflow commands ---------===//

#include "Output/GitHubAnnotations.h"

namespace gpuguard::output {
namespace {

std::string escape(llvm::StringRef Text, bool Property) {
  std::string Escaped;
  for (char C : Text) {
    switch (C) {
    case '%':
      Escaped += "%25";
      break;
    case '\r':
      Escaped += "%0D";
      break;
    case '\n':
      Escaped += "%0A";
      break;
    case ':':
      Escaped += Property ? "%3A" : ":";
      break;
    case ',':
      Escaped += Property ? "%2C" : ",";
      break;
    default:
      Escaped += C;
    }
  }
  return Escaped;
}

/// "path:line:col: " in front of a note, as a compiler prints it.
std::string notePrefix(const Location &Where) {
  if (!Where.hasFile())
    return "";
  std::string Text = Where.RelativePath;
  if (Where.Line)
    Text +=
        ":" + std::to_string(Where.Line) + ":" + std::to_string(Where.Column);
  return Text + ": ";
}

} // namespace

std::string escapeAnnotationData(llvm::StringRef Text) {
  return escape(Text, /*Property=*/false);
}

std::string escapeAnnotationProperty(llvm::StringRef Text) {
  return escape(Text, /*Property=*/true);
}

void writeAnnotation(llvm::raw_ostream &OS, const Finding &F) {
  OS << "::" << (F.IsError ? "error" : "warning") << " ";
  if (F.Where.hasFile()) {
    OS << "file=" << escapeAnnotationProperty(F.Where.RelativePath);
    if (F.Where.Line)
      OS << ",line=" << F.Where.Line << ",col=" << F.Where.Column;
    OS << ",";
  }
  OS << "title=" << escapeAnnotationProperty(F.Check) << "::";
  std::string Message = F.Message;
  for (const Note &N : F.Notes)
    Message += "\n" + notePrefix(N.Where) + "note: " + N.Message;
  OS << escapeAnnotationData(Message) << "\n";
}

void writeAnnotation(llvm::raw_ostream &OS, const NotAnalysed &File) {
  OS << "::error file=" << escapeAnnotationProperty(File.Where.RelativePath)
     << ",title=gpuguard::" << escapeAnnotationData(File.Message) << "\n";
}

} // namespace gpuguard::output
