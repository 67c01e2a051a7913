//===--- Messages.cpp - What gpuguard itself prints -----------------------===//

#include "Driver/Messages.h"
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

void error(const llvm::Twine &Message) {
  std::lock_guard<std::mutex> Lock(MessageMutex);
  llvm::WithColor::error(llvm::errs(), "gpuguard") << Message << "\n";
}

void warning(const llvm::Twine &Message) {
  std::lock_guard<std::mutex> Lock(MessageMutex);
  llvm::WithColor::warning(llvm::errs(), "gpuguard") << Message << "\n";
}

void note(const llvm::Twine &Message) {
  std::lock_guard<std::mutex> Lock(MessageMutex);
  llvm::WithColor::note(llvm::errs(), "gpuguard") << Message << "\n";
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
