//===- Options.cpp - GPUGUARD_OPTIONS -------------------------------------===//
///
/// \file
/// Parses GPUGUARD_OPTIONS by the flags of gpuguard/flags.def: each flag's
/// key, type, field and the warning of an unusable value come from there.
///
//===----------------------------------------------------------------------===//

#include "Reporter.h"

#include <cerrno>
#include <cstdlib>

namespace gpuguard {
namespace rt {
namespace detail {
namespace {

bool parseValue(const std::string &Value, bool &Out) {
  if (Value == "0" || Value == "false") {
    Out = false;
    return true;
  }
  if (Value == "1" || Value == "true") {
    Out = true;
    return true;
  }
  return false;
}

bool parseValue(const std::string &Value, unsigned &Out) {
  if (Value.empty() ||
      Value.find_first_not_of("0123456789") != std::string::npos)
    return false;
  errno = 0;
  unsigned long long Parsed = std::strtoull(Value.c_str(), nullptr, 10);
  if (errno != 0 || Parsed > ~0u)
    return false;
  Out = static_cast<unsigned>(Parsed);
  return true;
}

bool parseValue(const std::string &Value, std::string &Out) {
  if (Value.empty())
    return false;
  Out = Value;
  return true;
}

/// The warning of an unknown key, which names every known one.
std::string unknownOption() {
  std::string Known;
#define GPUGUARD_FLAG(Type, Name, Member, Default, Expected)                   \
  Known += Known.empty() ? #Name : ", " #Name;
#include "gpuguard/flags.def"
  return "unknown option (known: " + Known + ")";
}

/// An entry as a warning shows it: at most 60 characters, control characters
/// as '?'.
std::string printableEntry(const std::string &Item) {
  std::string Shown;
  for (size_t I = 0; I < Item.size() && I < 60; ++I) {
    unsigned char C = static_cast<unsigned char>(Item[I]);
    Shown += C < 0x20 || C == 0x7f ? '?' : Item[I];
  }
  if (Item.size() > 60)
    Shown += "...";
  return Shown;
}

} // namespace

Options parseOptions(const char *Text, std::vector<std::string> &Warnings) {
  Options O;
  if (!Text)
    return O;
  // A line per bad entry up to this many; the rest are counted in one more.
  constexpr size_t WarningsShown = 10;
  size_t Ignored = 0;
  std::string All(Text);
  size_t Start = 0;
  while (Start <= All.size()) {
    size_t End = All.find(':', Start);
    if (End == std::string::npos)
      End = All.size();
    std::string Item = All.substr(Start, End - Start);
    Start = End + 1;
    if (Item.empty())
      continue;
    size_t Equals = Item.find('=');
    std::string Key = Item.substr(0, Equals);
    std::string Value =
        Equals == std::string::npos ? std::string() : Item.substr(Equals + 1);
    auto Bad = [&](const std::string &Expected) {
      if (++Ignored <= WarningsShown)
        Warnings.push_back("gpuguard: ignoring GPUGUARD_OPTIONS entry '" +
                           printableEntry(Item) + "': " + Expected);
    };
    bool Known = false;
#define GPUGUARD_FLAG(Type, Name, Member, Default, Expected)                   \
  if (Key == #Name) {                                                          \
    Known = true;                                                              \
    if (!parseValue(Value, O.Member))                                          \
      Bad(Expected);                                                           \
  }
#include "gpuguard/flags.def"
    if (!Known)
      Bad(unknownOption());
  }
  if (Ignored > WarningsShown)
    Warnings.push_back("gpuguard: ignoring " +
                       std::to_string(Ignored - WarningsShown) +
                       " more GPUGUARD_OPTIONS entries; fix the variable");
  return O;
}

} // namespace detail
} // namespace rt
} // namespace gpuguard
