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
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>

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

  void registerAllocation(unsigned long long Base, unsigned long long Bytes) {
    std::unique_lock<std::shared_mutex> Lock(AllocationMutex);
    Allocations[Base] = Bytes;
    ++AllocationGeneration;
  }

  void unregisterAllocation(unsigned long long Base) {
    std::unique_lock<std::shared_mutex> Lock(AllocationMutex);
    auto It = Allocations.find(Base);
    if (It == Allocations.end())
      return;
    retireLocked(It->first, It->second);
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
    for (const auto &[Base, Bytes] : Allocations)
      Entries.push_back(AllocationEntry{Base, Bytes});
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

  static unsigned long long bytesOf(unsigned long long Bytes) { return Bytes; }
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
  std::map<unsigned long long, unsigned long long> Allocations;
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

void registerAllocation(const void *Base, unsigned long long Bytes) {
  if (Base && Bytes)
    registry().registerAllocation(reinterpret_cast<std::uintptr_t>(Base),
                                  Bytes);
}

void unregisterAllocation(const void *Base) {
  if (Base)
    registry().unregisterAllocation(reinterpret_cast<std::uintptr_t>(Base));
}

} // namespace detail
} // namespace rt
} // namespace gpuguard
