//===--- Messages.h - What gpuguard itself prints ---------------*- C++ -*-===//
///
/// \file
/// The error, warning and note lines gpuguard prints about a run, apart from
/// the findings, and the set-up messages about how a file is parsed, which
/// are printed with the first file in input order that produces them.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_DRIVER_MESSAGES_H
#define GPUGUARD_DRIVER_MESSAGES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include <string>
#include <vector>

namespace gpuguard {

/// \p Text with each control character but tab written as `\xHH`: a NUL
/// byte or a newline from a file name or a configuration stays visible and
/// cannot break a message's single line.
std::string escapeControlCharacters(llvm::StringRef Text);

/// Print one whole line to standard error, prefixed `gpuguard: error:` (or
/// warning, note), its control characters escaped. Safe to call from any
/// thread.
void error(const llvm::Twine &Message);
void warning(const llvm::Twine &Message);
void note(const llvm::Twine &Message);

/// What gpuguard says about how one file is set up (an nvcc flag dropped,
/// the LibTorch it uses). \p Key is the same for every repeat of one message.
struct SetupMessage {
  std::string Key;
  std::string Text;
  bool IsNote = false;
};

/// Prints \p Message as a note or a warning.
void say(const SetupMessage &Message);

/// Collects \p Message for the file being checked, or says it at once
/// outside a check.
void setupMessage(SetupMessage Message);

/// Sends this thread's set-up messages into \p Into while it checks a file,
/// or, given null, back to standard error.
void collectSetupMessages(std::vector<SetupMessage> *Into);

} // namespace gpuguard

#endif // GPUGUARD_DRIVER_MESSAGES_H
