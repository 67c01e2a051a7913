//===--- Messages.cpp - What gpuguard itself prints -----------------------===//

#include "Driver/Messages.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <mutex>

namespace gpuguard {
namespace {

// Workers print set-up warnings and notes while the main thread prints
// findings: one lock keeps every message a whole line.
std::mutex MessageMutex;

/// Where the set-up messages of the file this thread is checking go: into
/// its outcome, which the main thread prints in input order. Null outside a
/// check.
thread_local std::vector<SetupMessage> *CollectedSetup = nullptr;

} // namespace

std::string escapeControlCharacters(llvm::StringRef Text) {
  std::string Escaped;
  Escaped.reserve(Text.size());
  for (unsigned char C : Text) {
    if ((C < 0x20 && C != '\t') || C == 0x7f) {
      Escaped += "\\x";
      Escaped += llvm::hexdigit(C >> 4, /*LowerCase=*/true);
      Escaped += llvm::hexdigit(C & 15, /*LowerCase=*/true);
      continue;
    }
    Escaped += static_cast<char>(C);
  }
  return Escaped;
}

void error(const llvm::Twine &Message) {
  std::string Line = escapeControlCharacters(Message.str());
  std::lock_guard<std::mutex> Lock(MessageMutex);
  llvm::WithColor::error(llvm::errs(), "gpuguard") << Line << "\n";
}

void warning(const llvm::Twine &Message) {
  std::string Line = escapeControlCharacters(Message.str());
  std::lock_guard<std::mutex> Lock(MessageMutex);
  llvm::WithColor::warning(llvm::errs(), "gpuguard") << Line << "\n";
}

void note(const llvm::Twine &Message) {
  std::string Line = escapeControlCharacters(Message.str());
  std::lock_guard<std::mutex> Lock(MessageMutex);
  llvm::WithColor::note(llvm::errs(), "gpuguard") << Line << "\n";
}

void say(const SetupMessage &Message) {
  if (Message.IsNote)
    note(Message.Text);
  else
    warning(Message.Text);
}

void setupMessage(SetupMessage Message) {
  if (CollectedSetup)
    CollectedSetup->push_back(std::move(Message));
  else
    say(Message);
}

void collectSetupMessages(std::vector<SetupMessage> *Into) {
  CollectedSetup = Into;
}

} // namespace gpuguard
