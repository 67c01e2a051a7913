//===--- Baseline.cpp - Findings accepted for now -------------------------===//

#include "Output/Baseline.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <tuple>

namespace gpuguard::output {
namespace {

constexpr llvm::StringLiteral FormatName = "gpuguard-baseline";

llvm::Error unusable(llvm::StringRef Path, const llvm::Twine &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "baseline '" + Path + "' " + Why +
                                     "; regenerate it with " +
                                     "--write-baseline=" + Path);
}

} // namespace

llvm::Expected<Baseline> Baseline::read(llvm::StringRef Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "cannot read baseline '" + Path + "': " + Buffer.getError().message() +
            "; check the path, or create it with --write-baseline=" + Path);
  return parse((*Buffer)->getBuffer(), Path);
}

llvm::Expected<Baseline> Baseline::parse(llvm::StringRef Text,
                                         llvm::StringRef Path) {
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(Text);
  if (!Parsed)
    return unusable(Path, "is not valid JSON (" +
                              llvm::toString(Parsed.takeError()) + ")");
  const llvm::json::Object *Root = Parsed->getAsObject();
  if (!Root || Root->getString("format") != FormatName)
    return unusable(Path, "is not a gpuguard baseline (no \"format\": \"" +
                              FormatName + "\")");
  std::optional<int64_t> Version = Root->getInteger("formatVersion");
  if (!Version)
    return unusable(Path, "has no \"formatVersion\"");
  if (*Version != BaselineFormatVersion)
    return unusable(Path, "has format version " + llvm::Twine(*Version) +
                              ", but this gpuguard reads version " +
                              llvm::Twine(BaselineFormatVersion));
  const llvm::json::Array *Findings = Root->getArray("findings");
  if (!Findings)
    return unusable(Path, "has no \"findings\" list");
  Baseline Result;
  for (size_t I = 0; I < Findings->size(); ++I) {
    const llvm::json::Object *Entry = (*Findings)[I].getAsObject();
    std::optional<llvm::StringRef> Fingerprint =
        Entry ? Entry->getString("fingerprint") : std::nullopt;
    if (!Fingerprint || Fingerprint->empty())
      return unusable(Path, "has a finding without a \"fingerprint\" (entry " +
                                llvm::Twine(I + 1) + ")");
    ++Result.Remaining[*Fingerprint];
  }
  return Result;
}

bool Baseline::consume(llvm::StringRef Fingerprint) {
  auto It = Remaining.find(Fingerprint);
  if (It == Remaining.end() || It->second == 0)
    return false;
  --It->second;
  return true;
}

std::string renderBaseline(std::vector<BaselineEntry> Entries,
                           llvm::StringRef ToolVersion) {
  llvm::sort(Entries, [](const BaselineEntry &A, const BaselineEntry &B) {
    return std::tie(A.Path, A.Check, A.Fingerprint, A.Message) <
           std::tie(B.Path, B.Check, B.Fingerprint, B.Message);
  });
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  llvm::json::OStream J(OS, /*IndentSize=*/2);
  J.object([&] {
    J.attribute("format", FormatName);
    J.attribute("formatVersion", BaselineFormatVersion);
    J.attribute("gpuguardVersion", ToolVersion);
    J.attributeArray("findings", [&] {
      for (const BaselineEntry &Entry : Entries)
        J.object([&] {
          J.attribute("fingerprint", Entry.Fingerprint);
          J.attribute("check", Entry.Check);
          J.attribute("path", Entry.Path);
          J.attribute("message", Entry.Message);
        });
    });
  });
  OS << "\n";
  return Text;
}

} // namespace gpuguard::output
