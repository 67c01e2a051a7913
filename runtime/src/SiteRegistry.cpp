//===- SiteRegistry.cpp - The site tables of instrumented copies ----------===//
///
/// \file
/// Each instrumented copy registers its site table at static initialisation,
/// keyed by its file's key; records and SiteRefs name a site by that key and
/// an index. A table made for another site-table ABI version is refused with
/// one line, so that its sites are reported as unknown rather than wrongly.
///
//===----------------------------------------------------------------------===//

#include "Reporter.h"

#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <vector>

namespace gpuguard {
namespace rt {
namespace detail {
namespace {

/// Sites whose table was never registered (a SiteInfo made by hand) are
/// keyed by their address and this index.
constexpr unsigned UnregisteredIndex = ~0u;

struct SiteTable {
  unsigned long long FileKey;
  const SiteInfo *Sites;
  unsigned Count;
};

class SiteRegistry {
public:
  static SiteRegistry &get() {
    // Never destroyed: instrumented code may still report from other
    // threads or static destructors while the process exits.
    static SiteRegistry *Instance = new SiteRegistry();
    return *Instance;
  }

  void add(unsigned long long FileKey, const SiteInfo *Sites, unsigned Count) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Tables.insert({FileKey, SiteTable{FileKey, Sites, Count}});
    AllTables.push_back(SiteTable{FileKey, Sites, Count});
  }

  const SiteInfo *lookup(SiteRef Ref) {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Tables.find(Ref.FileKey);
    if (It == Tables.end() || Ref.Index >= It->second.Count)
      return nullptr;
    return &It->second.Sites[Ref.Index];
  }

  SiteRef refOf(const SiteInfo &Site) {
    std::lock_guard<std::mutex> Lock(Mutex);
    for (const SiteTable &T : AllTables)
      if (&Site >= T.Sites && &Site < T.Sites + T.Count)
        return SiteRef{T.FileKey, static_cast<unsigned>(&Site - T.Sites)};
    return SiteRef{reinterpret_cast<std::uintptr_t>(&Site), UnregisteredIndex};
  }

private:
  std::mutex Mutex;
  std::map<unsigned long long, SiteTable> Tables;
  std::vector<SiteTable> AllTables;
};

} // namespace

const SiteInfo *lookupSite(SiteRef Ref) {
  return SiteRegistry::get().lookup(Ref);
}

SiteRef refOfSite(const SiteInfo &Site) {
  return SiteRegistry::get().refOf(Site);
}

} // namespace detail

SiteTableRegistrar::SiteTableRegistrar(unsigned long long FileKey,
                                       const SiteInfo *Sites, unsigned Count,
                                       unsigned AbiVersion) {
  // The first registration starts the reporter, early enough that its
  // summary comes after everything else at exit.
  detail::startReporter();
  if (AbiVersion != GPUGUARD_SITE_TABLE_ABI_VERSION) {
    std::fprintf(stderr,
                 "gpuguard: ignoring the site table of %s: it was instrumented "
                 "for site-table ABI version %u, this runtime has version %u; "
                 "instrument it again with the gpuguard of this runtime\n",
                 Count && Sites[0].File ? Sites[0].File : "a file", AbiVersion,
                 GPUGUARD_SITE_TABLE_ABI_VERSION);
    return;
  }
  detail::SiteRegistry::get().add(FileKey, Sites, Count);
}

} // namespace rt
} // namespace gpuguard
