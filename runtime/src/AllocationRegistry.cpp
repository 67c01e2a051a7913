//===- AllocationRegistry.cpp - Live device memory ------------------------===//
///
/// \file
/// The host's registry of device memory: allocations the CUDA wrappers made,
/// memory borrowed from other allocators (LibTorch's storages) for as long
/// as its owner says it is alive, and memory freed while kernels may still
/// use it. Host checks look addresses up here; the CUDA host side pushes
/// snapshots of it to each module's device table.
///
//===----------------------------------------------------------------------===//

#include "Reporter.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <tuple>

namespace gpuguard {
namespace rt {
namespace detail {
namespace {

class AllocationRegistry {
public:
  static AllocationRegistry &get() {
    // Never destroyed: instrumented code may still allocate or free from
    // other threads or static destructors while the process exits.
    static AllocationRegistry *Instance = new AllocationRegistry();
    return *Instance;
  }

  void registerAllocation(unsigned long long Base, unsigned long long Bytes,
                          const AllocationOrigin &Origin) {
    std::unique_lock<std::shared_mutex> Lock(AllocationMutex);
    Allocations[Base] = WrappedEntry{Bytes, Origin};
    ++AllocationGeneration;
  }

  /// The wrapped allocations still live, by base.
  std::vector<LiveAllocation> liveAllocations() {
    std::shared_lock<std::shared_mutex> Lock(AllocationMutex);
    std::vector<LiveAllocation> Live;
    Live.reserve(Allocations.size());
    for (const auto &[Base, Entry] : Allocations)
      if (Entry.Origin.Allocator)
        Live.push_back(LiveAllocation{Base, Entry.Bytes, Entry.Origin});
    return Live;
  }

  /// The device was reset: every wrapped allocation is gone with it.
  void forgetWrapped() {
    std::unique_lock<std::shared_mutex> Lock(AllocationMutex);
    for (const auto &[Base, Entry] : Allocations)
      retireLocked(Base, Entry.Bytes);
    Allocations.clear();
    ++AllocationGeneration;
  }

  void unregisterAllocation(unsigned long long Base) {
    std::unique_lock<std::shared_mutex> Lock(AllocationMutex);
    auto It = Allocations.find(Base);
    if (It == Allocations.end())
      return;
    retireLocked(It->first, It->second.Bytes);
    Allocations.erase(It);
    ++AllocationGeneration;
  }

  /// No kernel runs any more (a device-wide synchronisation succeeded):
  /// retired memory no longer needs covering.
  void quiesce() {
    std::unique_lock<std::shared_mutex> Lock(AllocationMutex);
    if (Retired.empty())
      return;
    Retired.clear();
    ++AllocationGeneration;
  }

  /// Borrowed memory (tensors' storages): registered in place of the
  /// borrowed entries it overlaps, never over a wrapped allocation.
  void registerBorrowed(unsigned long long Base, unsigned long long Bytes,
                        std::unique_ptr<BorrowedMemory> Owner) {
    std::unique_lock<std::shared_mutex> Lock(AllocationMutex);
    pruneBorrowedLocked();
    unsigned long long End = Base + Bytes;
    if (overlapsLocked(Allocations, Base, End))
      return;
    // The same storage registered again (one per launch of a training
    // step): nothing changes, so nothing is pushed to the device.
    if (auto It = Borrowed.find(Base);
        It != Borrowed.end() && It->second.Bytes == Bytes)
      return;
    for (auto It = Borrowed.begin(); It != Borrowed.end();) {
      if (It->first < End && Base < It->first + It->second.Bytes) {
        retireLocked(It->first, It->second.Bytes);
        It = Borrowed.erase(It);
      } else {
        ++It;
      }
    }
    Borrowed[Base] = BorrowedEntry{Bytes, std::move(Owner)};
    ++AllocationGeneration;
  }

  bool pruneBorrowed() {
    std::unique_lock<std::shared_mutex> Lock(AllocationMutex);
    return pruneBorrowedLocked();
  }

  bool findAllocation(unsigned long long Address, AllocationEntry &Found) {
    std::shared_lock<std::shared_mutex> Lock(AllocationMutex);
    return findIn(Allocations, Address, Found) ||
           findIn(Borrowed, Address, Found);
  }

  /// The table for the device: live and retired memory, sorted by Base, with
  /// overlapping ranges merged into one. A kernel launched before memory
  /// was freed (or reused with another size) may still run while the table
  /// is replaced, so a range only grows until no kernel can run any more:
  /// an access is then checked against at least its own allocation.
  void snapshotAllocations(std::vector<AllocationEntry> &Entries,
                           unsigned long long &Generation) {
    std::shared_lock<std::shared_mutex> Lock(AllocationMutex);
    Entries.clear();
    Entries.reserve(Allocations.size() + Borrowed.size() + Retired.size());
    for (const auto &[Base, Entry] : Allocations)
      Entries.push_back(AllocationEntry{Base, Entry.Bytes});
    for (const auto &[Base, Entry] : Borrowed)
      Entries.push_back(AllocationEntry{Base, Entry.Bytes});
    for (const auto &[Base, Bytes] : Retired)
      Entries.push_back(AllocationEntry{Base, Bytes});
    mergeOverlapping(Entries);
    Generation = AllocationGeneration;
  }

  unsigned long long allocationGeneration() {
    std::shared_lock<std::shared_mutex> Lock(AllocationMutex);
    return AllocationGeneration;
  }

  void reset() {
    std::unique_lock<std::shared_mutex> Lock(AllocationMutex);
    Allocations.clear();
    Borrowed.clear();
    Retired.clear();
    ++AllocationGeneration;
  }

private:
  struct BorrowedEntry {
    unsigned long long Bytes = 0;
    std::unique_ptr<BorrowedMemory> Owner;
  };
  /// An allocation a CUDA wrapper made, and where.
  struct WrappedEntry {
    unsigned long long Bytes = 0;
    AllocationOrigin Origin;
  };

  static unsigned long long bytesOf(unsigned long long Bytes) { return Bytes; }
  static unsigned long long bytesOf(const WrappedEntry &Entry) {
    return Entry.Bytes;
  }
  static unsigned long long bytesOf(const BorrowedEntry &Entry) {
    return Entry.Bytes;
  }

  template <class Map>
  static bool findIn(const Map &Entries, unsigned long long Address,
                     AllocationEntry &Found) {
    auto It = Entries.upper_bound(Address);
    if (It == Entries.begin())
      return false;
    --It;
    if (Address - It->first >= bytesOf(It->second))
      return false;
    Found = AllocationEntry{It->first, bytesOf(It->second)};
    return true;
  }

  template <class Map>
  static bool overlapsLocked(const Map &Entries, unsigned long long Begin,
                             unsigned long long End) {
    auto It = Entries.lower_bound(End);
    if (It == Entries.begin())
      return false;
    --It;
    return It->first + bytesOf(It->second) > Begin;
  }

  /// Sorts \p Entries by Base (the device binary-searches them) and merges
  /// overlapping ranges; ranges that only touch stay apart.
  static void mergeOverlapping(std::vector<AllocationEntry> &Entries) {
    std::sort(Entries.begin(), Entries.end(),
              [](const AllocationEntry &A, const AllocationEntry &B) {
                return A.Base < B.Base;
              });
    size_t Kept = 0;
    for (const AllocationEntry &E : Entries) {
      if (Kept && E.Base < Entries[Kept - 1].Base + Entries[Kept - 1].Bytes) {
        AllocationEntry &Last = Entries[Kept - 1];
        Last.Bytes =
            std::max(Last.Base + Last.Bytes, E.Base + E.Bytes) - Last.Base;
        continue;
      }
      Entries[Kept++] = E;
    }
    Entries.resize(Kept);
  }

  /// Memory that left the registry while kernels may still use it, merged
  /// with the retired ranges it overlaps so that the map stays small.
  void retireLocked(unsigned long long Base, unsigned long long Bytes) {
    unsigned long long End = Base + Bytes;
    auto It = Retired.lower_bound(Base);
    if (It != Retired.begin() &&
        std::prev(It)->first + std::prev(It)->second > Base)
      --It;
    while (It != Retired.end() && It->first < End) {
      Base = std::min(Base, It->first);
      End = std::max(End, It->first + It->second);
      It = Retired.erase(It);
    }
    Retired[Base] = End - Base;
  }

  bool pruneBorrowedLocked() {
    bool Changed = false;
    for (auto It = Borrowed.begin(); It != Borrowed.end();) {
      if (It->second.Owner && It->second.Owner->alive()) {
        ++It;
        continue;
      }
      retireLocked(It->first, It->second.Bytes);
      It = Borrowed.erase(It);
      Changed = true;
    }
    if (Changed)
      ++AllocationGeneration;
    return Changed;
  }

  std::shared_mutex AllocationMutex;
  std::map<unsigned long long, WrappedEntry> Allocations;
  std::map<unsigned long long, BorrowedEntry> Borrowed;
  /// Freed or replaced ranges that kernels still running may use; emptied
  /// by quiesce().
  std::map<unsigned long long, unsigned long long> Retired;
  unsigned long long AllocationGeneration = 0;
};

AllocationRegistry &registry() { return AllocationRegistry::get(); }

} // namespace

void snapshotAllocations(std::vector<AllocationEntry> &Entries,
                         unsigned long long &Generation) {
  registry().snapshotAllocations(Entries, Generation);
}

void registerBorrowedAllocation(const void *Base, unsigned long long Bytes,
                                BorrowedMemory *Owner) {
  registry().registerBorrowed(reinterpret_cast<std::uintptr_t>(Base), Bytes,
                              std::unique_ptr<BorrowedMemory>(Owner));
}

bool pruneBorrowedAllocations() { return registry().pruneBorrowed(); }

void quiesceAllocations() { registry().quiesce(); }

unsigned long long allocationGeneration() {
  return registry().allocationGeneration();
}

void resetAllocationsForTesting() { registry().reset(); }

bool findAllocation(const void *Address, AllocationEntry &Found) {
  return registry().findAllocation(reinterpret_cast<std::uintptr_t>(Address),
                                   Found);
}

void registerAllocation(const void *Base, unsigned long long Bytes,
                        const char *Allocator, const char *File,
                        unsigned Line) {
  if (Base && Bytes)
    registry().registerAllocation(reinterpret_cast<std::uintptr_t>(Base), Bytes,
                                  AllocationOrigin{Allocator, File, Line});
}

std::vector<LiveAllocation> liveAllocations() {
  return registry().liveAllocations();
}

void forgetWrappedAllocations() { registry().forgetWrapped(); }

std::string formatBytes(unsigned long long Bytes) {
  static const char *const Units[] = {"KiB", "MiB", "GiB", "TiB"};
  std::string Text = std::to_string(Bytes) + " bytes";
  if (Bytes < 1024)
    return Text;
  double Scaled = static_cast<double>(Bytes) / 1024;
  unsigned Unit = 0;
  while (Scaled >= 1024 && Unit + 1 < sizeof(Units) / sizeof(Units[0])) {
    Scaled /= 1024;
    ++Unit;
  }
  char Human[32];
  std::snprintf(Human, sizeof(Human), " (%.1f %s)", Scaled, Units[Unit]);
  return Text + Human;
}

std::string describeLiveTotal(const std::vector<LiveAllocation> &Live) {
  unsigned long long Bytes = 0;
  for (const LiveAllocation &A : Live)
    Bytes += A.Bytes;
  return std::to_string(Live.size()) + " allocation(s), " + formatBytes(Bytes);
}

std::vector<std::string>
describeLiveAllocations(const std::vector<LiveAllocation> &Live,
                        unsigned MaxGroups) {
  struct Group {
    AllocationOrigin Origin;
    unsigned long long Bytes = 0, Count = 0;
  };
  // Grouped by the text of their origin: one file may be named by several
  // string literals.
  std::map<std::tuple<std::string, std::string, unsigned>, Group> Groups;
  for (const LiveAllocation &A : Live) {
    Group &G =
        Groups[{A.Origin.File ? A.Origin.File : "",
                A.Origin.Allocator ? A.Origin.Allocator : "", A.Origin.Line}];
    G.Origin = A.Origin;
    G.Bytes += A.Bytes;
    ++G.Count;
  }
  // Largest first; among equals, in the order of their origins.
  std::vector<std::pair<unsigned long long, size_t>> Order;
  std::vector<Group> ByOrigin;
  for (auto &[Key, G] : Groups) {
    Order.push_back({G.Bytes, ByOrigin.size()});
    ByOrigin.push_back(G);
  }
  std::sort(Order.begin(), Order.end(), [](const auto &A, const auto &B) {
    return A.first != B.first ? A.first > B.first : A.second < B.second;
  });
  std::vector<Group> Sorted;
  for (const auto &[Bytes, Index] : Order)
    Sorted.push_back(ByOrigin[Index]);
  std::vector<std::string> Lines;
  for (const Group &G : Sorted) {
    if (Lines.size() == MaxGroups) {
      Lines.push_back("... and " + std::to_string(Sorted.size() - MaxGroups) +
                      " more line(s)");
      break;
    }
    std::string Line = formatBytes(G.Bytes) + " in " + std::to_string(G.Count) +
                       " allocation(s)";
    if (G.Origin.Allocator)
      Line += std::string(" by ") + G.Origin.Allocator;
    if (G.Origin.File)
      Line += std::string(" at ") + G.Origin.File + ":" +
              std::to_string(G.Origin.Line);
    else
      Line += " (made outside instrumented code)";
    Lines.push_back(Line);
  }
  return Lines;
}

void unregisterAllocation(const void *Base) {
  if (Base)
    registry().unregisterAllocation(reinterpret_cast<std::uintptr_t>(Base));
}

} // namespace detail
} // namespace rt
} // namespace gpuguard
