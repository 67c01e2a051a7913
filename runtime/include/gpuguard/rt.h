//===- gpuguard/rt.h - gpuguard runtime checks ----------------------------===//
///
/// \file
/// The runtime checks that `gpuguard instrument` inserts into CUDA code: the
/// site tables that name each check's source location, the device checks
/// (usable on the host and on the device), and, when compiled as CUDA, the
/// host-side checks of CUDA API results and kernel launches together with
/// drop-in wrappers of the CUDA allocation and synchronisation calls.
///
/// A failed check records what it saw and continues with a safe value: a
/// device-side assert would kill the CUDA context. On the device a record goes
/// into a bounded buffer of this translation unit's module; the host reporter
/// (runtime/src, library gpuguard::runtime) drains it after synchronisation
/// points and at exit and reports each site once. Host code records straight
/// into the reporter.
///
/// The device part includes no header at all, so it compiles with nvcc, with
/// Clang in CUDA mode (with or without the toolkit's headers), and as plain
/// host C++, where block and thread indices are reported as 0.
///
/// With GPUGUARD_RT_DISABLE defined, every check returns its value argument
/// unchanged, the wrappers forward to the CUDA runtime, nothing is recorded
/// and nothing of the runtime library is needed at link time.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_RT_H
#define GPUGUARD_RT_H

//===----------------------------------------------------------------------===//
// Compiler modes
//===----------------------------------------------------------------------===//

// GPUGUARD_RT_CUDA: compiled by a CUDA compiler (both its host and device
// passes). Clang defines __CUDA__ in CUDA mode; __CUDACC__ only comes with the
// toolkit's headers. nvcc defines __CUDACC__ and __NVCC__.
#if defined(__CUDACC__) || defined(__CUDA__)
#define GPUGUARD_RT_CUDA 1
#if defined(__clang__) && defined(__CUDA__) && !defined(__NVCC__)
#define GPUGUARD_RT_CLANG_CUDA 1
#endif
#endif

#if defined(GPUGUARD_RT_CLANG_CUDA)
// Attributes rather than the __host__/__device__ macros, which only exist
// when the toolkit's headers are included.
#define GPUGUARD_HD                                                            \
  __attribute__((host, device)) __attribute__((always_inline)) inline
#define GPUGUARD_RT_DEVICE __attribute__((device))
#elif defined(GPUGUARD_RT_CUDA)
#define GPUGUARD_HD __host__ __device__ __forceinline__
#define GPUGUARD_RT_DEVICE __device__
#else
#define GPUGUARD_HD inline
#endif

// The CUDA host side (checkApi, checkLaunch and the wrappers) needs the CUDA
// runtime API. CUDA compilers include it before any source; a host C++ file
// opts in with -DGPUGUARD_RT_CUDA_HOST.
#if defined(GPUGUARD_RT_CUDA_HOST) && !defined(GPUGUARD_RT_CUDA) &&            \
    !defined(CUDART_VERSION)
#include <cuda_runtime_api.h>
#endif
#if defined(GPUGUARD_RT_CUDA) || defined(GPUGUARD_RT_CUDA_HOST)
#define GPUGUARD_RT_HAS_CUDA_HOST 1
#endif
// Stream-ordered allocation (cudaMallocAsync, cudaFreeAsync) came in 11.2.
#if defined(CUDART_VERSION) && CUDART_VERSION < 11020
#error "gpuguard's runtime needs CUDA 11.2 or newer"
#endif

#include "abi.h"

namespace gpuguard {
namespace rt {

//===----------------------------------------------------------------------===//
// Site identity
//===----------------------------------------------------------------------===//

/// Names one site: the key of its file's site table and its index there.
/// Written as a literal by the rewriter; trivially copyable, device-usable.
struct SiteRef {
  unsigned long long FileKey;
  unsigned Index;
};

/// What a site checks: site_kinds.def, shared with `gpuguard instrument`.
enum SiteKind : unsigned {
#define GPUGUARD_SITE_KIND(Name, Value, Side, EntryPoint, Message, Values)     \
  Name = Value,
#include "site_kinds.def"
};

/// One entry of an instrumented file's site table (host memory only).
struct SiteInfo {
  const char *File;      ///< original absolute path
  unsigned Line, Column; ///< original 1-based line and column
  const char *Function;  ///< enclosing function (kernel name for device sites)
  const char *Check;     ///< check name, e.g. "cuda-unchecked-index"
  unsigned Kind;         ///< SiteKind
  int Related;           ///< index of a related site in the same table, or -1
  const char *What;      ///< short text: the operand or op, e.g. "ids"
};

/// Registers a translation unit's site table with the reporter at static
/// initialisation. Host only. Tables registered again under the same key
/// (a header instrumented once, included by several files) are one table.
/// \p AbiVersion is the GPUGUARD_SITE_TABLE_ABI_VERSION of the gpuguard that
/// made the table; a table of another version is not registered.
struct SiteTableRegistrar {
#ifdef GPUGUARD_RT_DISABLE
  SiteTableRegistrar(unsigned long long, const SiteInfo *, unsigned, unsigned) {
  }
#else
  SiteTableRegistrar(unsigned long long FileKey, const SiteInfo *Sites,
                     unsigned Count, unsigned AbiVersion);
#endif
};

//===----------------------------------------------------------------------===//
// Records
//===----------------------------------------------------------------------===//

/// How a record's 64-bit operand value is to be read.
enum ValueTag : unsigned char {
  NoValue = 0,
  SignedValue = 1,   ///< two's complement long long
  UnsignedValue = 2, ///< unsigned long long
  FloatValue = 3,    ///< the bits of a double
};

/// What a failed check writes: fixed size, plain old data, the same on the
/// host and on the device.
struct Record {
  unsigned long long FileKey;
  unsigned long long Values[2];
  unsigned Index;
  unsigned Block[3];
  unsigned Thread[3];
  unsigned char Tags[2];
  /// 1 when the record is its site's first failure and the site's tally
  /// (DeviceModuleState::Sites) counts every failure, this one included.
  unsigned char Tallied;
  unsigned char Reserved;
  /// Set to 1 last, after a memory fence: the host reads a device record only
  /// once it is complete.
  unsigned Ready;
  unsigned Padding;
};
static_assert(sizeof(Record) == 64, "records are read by size on the host");

/// One live device allocation: [Base, Base + Bytes).
struct AllocationEntry {
  unsigned long long Base;
  unsigned long long Bytes;
};

namespace detail {

/// Records per device module buffer; more are counted, not written.
constexpr unsigned RecordCapacity = 1024;
/// Live allocations the device can look up; accesses into further ones are
/// not checked (never guessed).
constexpr unsigned AllocationCapacity = 4096;
/// Sites per module with a device tally: sites of a file with a higher index,
/// or whose index another file's site of the module took first, take a
/// record at every failure instead.
constexpr unsigned SiteTallyCapacity = 4096;

/// How often one site failed on the device. The first failure claims the
/// entry for its file (FileKey 0: free) and takes a record; later ones only
/// count, so that millions of failures at one site cannot crowd the other
/// sites' records out of the buffer.
struct SiteTally {
  unsigned long long FileKey;
  unsigned long long Failures;
};

/// The per-module device state. The host writes the head (halt flag and
/// allocation table, sorted by Base) with cudaMemcpyToSymbol, and reads the
/// tail (claimed count and records) with cudaMemcpyFromSymbol.
///
/// Kernels may read the table while the host rewrites it (another thread
/// allocates). TableSequence is a sequence lock: the host makes it odd,
/// waits for that copy, writes the table, waits, and makes it even again; a
/// lookup that sees it odd, or changed across its reads, checks nothing
/// rather than trust a half-written table.
///
/// Why copies into `__device__` globals rather than managed memory: managed
/// memory cannot be touched by the host while any kernel runs on devices
/// without concurrent managed access (Windows, Jetson, pre-Pascal), and the
/// registry must be updated by cudaMalloc in one thread while kernels run in
/// another. A global also exists from the moment the module is loaded, so no
/// record is lost before the host first sets anything up.
struct DeviceModuleState {
  unsigned HaltOnError;
  unsigned TableSequence;
  unsigned AllocationCount;
  unsigned Reserved;
  AllocationEntry Allocations[AllocationCapacity];
  unsigned long long Claimed;
  /// 1 + the highest site index with a tally: the host reads
  /// Sites[0, SiteSpan) only.
  unsigned long long SiteSpan;
  Record Records[RecordCapacity];
  SiteTally Sites[SiteTallyCapacity];
};

//===--- Value encoding ---------------------------------------------------===//

template <class T> struct FloatTraits {
  static constexpr bool IsFloat = false;
};
template <> struct FloatTraits<float> {
  static constexpr bool IsFloat = true;
};
template <> struct FloatTraits<double> {
  static constexpr bool IsFloat = true;
};
template <> struct FloatTraits<long double> {
  static constexpr bool IsFloat = true;
};

GPUGUARD_HD unsigned long long bitsOfDouble(double Value) {
  unsigned long long Bits;
  __builtin_memcpy(&Bits, &Value, sizeof(Bits));
  return Bits;
}

GPUGUARD_HD double doubleOfBits(unsigned long long Bits) {
  double Value;
  __builtin_memcpy(&Value, &Bits, sizeof(Value));
  return Value;
}

/// Encodes an integral value with its signedness.
template <class V>
GPUGUARD_HD void encodeInteger(V Value, unsigned long long &Bits,
                               unsigned char &Tag) {
  if (V(-1) < V(0)) {
    Bits = static_cast<unsigned long long>(static_cast<long long>(Value));
    Tag = SignedValue;
  } else {
    Bits = static_cast<unsigned long long>(Value);
    Tag = UnsignedValue;
  }
}

/// True when 0 <= Index < Bound, compared as mathematical integers whatever
/// the two types' signedness.
template <class I, class B> GPUGUARD_HD bool indexBelow(I Index, B Bound) {
  if (I(-1) < I(0) && static_cast<long long>(Index) < 0)
    return false;
  if (B(-1) < B(0) && static_cast<long long>(Bound) <= 0)
    return false;
  return static_cast<unsigned long long>(Index) <
         static_cast<unsigned long long>(Bound);
}

/// False for infinities and NaN. Decided on the bits, so fast-math flags
/// cannot fold it away.
template <class F> GPUGUARD_HD bool isFinite(F Value) {
  if (sizeof(F) == sizeof(float) && FloatTraits<F>::IsFloat) {
    float AsFloat = static_cast<float>(Value);
    unsigned Bits;
    __builtin_memcpy(&Bits, &AsFloat, sizeof(Bits));
    return (Bits & 0x7f800000u) != 0x7f800000u;
  }
  // double, and anything that converts to it (half types, long double).
  return (bitsOfDouble(static_cast<double>(Value)) & 0x7ff0000000000000ull) !=
         0x7ff0000000000000ull;
}

/// The site and operand values of a record; where it ran is the caller's.
GPUGUARD_HD void fillRecord(Record &R, SiteRef Site, unsigned long long Value0,
                            unsigned char Tag0, unsigned long long Value1,
                            unsigned char Tag1) {
  R.FileKey = Site.FileKey;
  R.Index = Site.Index;
  R.Values[0] = Value0;
  R.Values[1] = Value1;
  R.Tags[0] = Tag0;
  R.Tags[1] = Tag1;
}

//===--- Allocation registry lookups --------------------------------------===//

/// Finds the allocation containing \p Address in \p Entries (sorted by Base,
/// non-overlapping). Returns false when no entry contains it. \p Entry may
/// be volatile, for a table another party may be writing.
template <class Entry>
GPUGUARD_HD bool findAllocationIn(Entry *Entries, unsigned Count,
                                  unsigned long long Address,
                                  AllocationEntry &Found) {
  // The last entry whose Base <= Address.
  unsigned Low = 0, High = Count;
  while (Low < High) {
    unsigned Mid = Low + (High - Low) / 2;
    if (Entries[Mid].Base <= Address)
      Low = Mid + 1;
    else
      High = Mid;
  }
  if (Low == 0)
    return false;
  unsigned long long Base = Entries[Low - 1].Base;
  unsigned long long Bytes = Entries[Low - 1].Bytes;
  if (Address - Base >= Bytes)
    return false;
  Found.Base = Base;
  Found.Bytes = Bytes;
  return true;
}

/// Orders a device thread's reads of memory the host writes.
struct DeviceFence {
  GPUGUARD_HD void operator()() const {
#if defined(__CUDA_ARCH__) && defined(GPUGUARD_RT_CLANG_CUDA)
    // What __threadfence() is, without the toolkit's headers.
    __nvvm_membar_gl();
#elif defined(__CUDA_ARCH__)
    __threadfence();
#endif
  }
};

/// Looks \p Address up in \p State's table while the host may be rewriting
/// it (see DeviceModuleState): false, checking nothing, when the sequence
/// lock shows a write in progress or one that happened during the lookup.
/// \p Fence orders the reads (__threadfence on the device); the loads are
/// volatile, so that none is served from a stale cache line.
template <class Fence>
GPUGUARD_HD bool
findAllocationStable(const DeviceModuleState &State, unsigned long long Address,
                     AllocationEntry &Found, Fence OrderReads) {
  const volatile DeviceModuleState &Shared = State;
  unsigned Before = Shared.TableSequence;
  if (Before & 1u)
    return false;
  OrderReads();
  unsigned Count = Shared.AllocationCount;
  if (Count > AllocationCapacity)
    Count = AllocationCapacity;
  AllocationEntry Candidate;
  bool Hit = findAllocationIn(Shared.Allocations, Count, Address, Candidate);
  OrderReads();
  if (Shared.TableSequence != Before || !Hit)
    return false;
  Found = Candidate;
  return true;
}

/// Whether element \p Index of an array of \p ElementSize-byte elements at
/// \p Address lies inside \p Allocation (which contains \p Address).
/// \p Extent receives the number of whole elements from \p Address to the
/// allocation's end.
template <class I>
GPUGUARD_HD bool elementInside(const AllocationEntry &Allocation,
                               unsigned long long Address,
                               unsigned long long ElementSize, I Index,
                               unsigned long long &Extent) {
  unsigned long long Before = Address - Allocation.Base;
  Extent = (Allocation.Bytes - Before) / ElementSize;
  if (I(-1) < I(0) && static_cast<long long>(Index) < 0) {
    // Negative indices reach back to the allocation's start.
    unsigned long long Back =
        0ull - static_cast<unsigned long long>(static_cast<long long>(Index));
    return Back <= Before / ElementSize;
  }
  return static_cast<unsigned long long>(Index) < Extent;
}

//===--- Host entry points (runtime/src) ----------------------------------===//

#ifndef GPUGUARD_RT_DISABLE
/// Hands a record made on the host to the reporter (thread-safe). Aborts
/// after the report when halt_on_error=1.
void submitRecord(const Record &R);
/// Looks \p Address up in the host copy of the allocation registry.
bool findAllocation(const void *Address, AllocationEntry &Found);
/// Keep the host registry; the CUDA wrappers call these. \p Allocator is the
/// function that made the allocation (`cudaMalloc`) and \p File and \p Line
/// its call site, for the reports of live memory (null and 0 when unknown).
void registerAllocation(const void *Base, unsigned long long Bytes,
                        const char *Allocator = nullptr,
                        const char *File = nullptr, unsigned Line = 0);
void unregisterAllocation(const void *Base);

/// Device memory the program got from an allocator gpuguard does not wrap
/// (LibTorch's caching allocator), registered for as long as alive() says
/// the memory still belongs to what registered it. An entry whose memory
/// was freed or moved leaves the registry before the next instrumented
/// launch; the device keeps covering its range until no kernel launched
/// before then can run (see snapshotAllocations).
class BorrowedMemory {
public:
  virtual ~BorrowedMemory() = default;
  virtual bool alive() const = 0;
};
/// Registers [Base, Base + Bytes), owned by \p Owner (taken over), in place
/// of borrowed entries it overlaps. Memory inside a wrapped allocation is
/// left as it is.
void registerBorrowedAllocation(const void *Base, unsigned long long Bytes,
                                BorrowedMemory *Owner);
/// Drops the borrowed entries that are no longer alive; true if any was.
bool pruneBorrowedAllocations();
#endif

//===--- Recording --------------------------------------------------------===//

#if defined(GPUGUARD_RT_CUDA) && !defined(GPUGUARD_RT_DISABLE)
/// This module's device state. `static`: with whole-program compilation each
/// translation unit is its own module anyway, and with -rdc each keeps its own
/// copy; the host drains every one it was told about.
static GPUGUARD_RT_DEVICE DeviceModuleState ModuleState;

#ifdef __CUDA_ARCH__
/// Counts a failure in its site's tally. Returns 1 when the site has a tally
/// and this is its first failure, 0 when the tally counted it and the first
/// failure holds the record, and 2 when the site has no tally.
static GPUGUARD_RT_DEVICE int tallyOnDevice(SiteRef Site) {
  if (Site.Index >= SiteTallyCapacity || Site.FileKey == 0)
    return 2;
  SiteTally &Tally = ModuleState.Sites[Site.Index];
#ifdef GPUGUARD_RT_CLANG_CUDA
  unsigned long long Owner = static_cast<unsigned long long>(
      __nvvm_atom_cas_gen_ll(reinterpret_cast<long long *>(&Tally.FileKey), 0ll,
                             static_cast<long long>(Site.FileKey)));
#else
  unsigned long long Owner = atomicCAS(&Tally.FileKey, 0ull, Site.FileKey);
#endif
  if (Owner != 0 && Owner != Site.FileKey)
    return 2;
#ifdef GPUGUARD_RT_CLANG_CUDA
  long long Before = __nvvm_atom_add_gen_ll(
      reinterpret_cast<long long *>(&Tally.Failures), 1ll);
  if (Before != 0)
    return 0;
  __nvvm_atom_max_gen_ull(&ModuleState.SiteSpan, Site.Index + 1ull);
#else
  if (atomicAdd(&Tally.Failures, 1ull) != 0)
    return 0;
  atomicMax(&ModuleState.SiteSpan, Site.Index + 1ull);
#endif
  return 1;
}

static GPUGUARD_RT_DEVICE __attribute__((noinline)) void
recordOnDevice(SiteRef Site, unsigned long long Value0, unsigned char Tag0,
               unsigned long long Value1, unsigned char Tag1) {
  int Tallied = tallyOnDevice(Site);
  if (Tallied != 0) {
#ifdef GPUGUARD_RT_CLANG_CUDA
    unsigned long long Slot =
        static_cast<unsigned long long>(__nvvm_atom_add_gen_ll(
            reinterpret_cast<long long *>(&ModuleState.Claimed), 1ll));
#else
    unsigned long long Slot = atomicAdd(&ModuleState.Claimed, 1ull);
#endif
    if (Slot < RecordCapacity) {
      Record &R = ModuleState.Records[Slot];
      fillRecord(R, Site, Value0, Tag0, Value1, Tag1);
      R.Tallied = Tallied == 1;
#ifdef GPUGUARD_RT_CLANG_CUDA
      R.Block[0] = __nvvm_read_ptx_sreg_ctaid_x();
      R.Block[1] = __nvvm_read_ptx_sreg_ctaid_y();
      R.Block[2] = __nvvm_read_ptx_sreg_ctaid_z();
      R.Thread[0] = __nvvm_read_ptx_sreg_tid_x();
      R.Thread[1] = __nvvm_read_ptx_sreg_tid_y();
      R.Thread[2] = __nvvm_read_ptx_sreg_tid_z();
      __nvvm_membar_gl();
#else
      R.Block[0] = blockIdx.x;
      R.Block[1] = blockIdx.y;
      R.Block[2] = blockIdx.z;
      R.Thread[0] = threadIdx.x;
      R.Thread[1] = threadIdx.y;
      R.Thread[2] = threadIdx.z;
      __threadfence();
#endif
      *static_cast<volatile unsigned *>(&R.Ready) = 1;
    }
  }
  if (*static_cast<volatile unsigned *>(&ModuleState.HaltOnError)) {
#ifdef GPUGUARD_RT_CLANG_CUDA
    __builtin_trap();
#else
    __trap();
#endif
  }
}
#endif // __CUDA_ARCH__

/// Tells the host reporter about this module's state, so that it can set its
/// halt flag and allocation table and drain its records.
void registerDeviceModule(const void *StateSymbol);
#ifndef __CUDA_ARCH__
struct DeviceModuleRegistrar {
  DeviceModuleRegistrar() { registerDeviceModule(&ModuleState); }
};
static const DeviceModuleRegistrar ModuleRegistrar;
#endif
#endif // GPUGUARD_RT_CUDA && !GPUGUARD_RT_DISABLE

#ifndef GPUGUARD_RT_DISABLE
// Internal linkage, like ModuleState: each translation unit's checks write
// into its own module's state, even when -rdc links device code together.

/// Records a failed check wherever the code runs.
static GPUGUARD_HD void record(SiteRef Site, unsigned long long Value0,
                               unsigned char Tag0,
                               unsigned long long Value1 = 0,
                               unsigned char Tag1 = NoValue) {
#ifdef __CUDA_ARCH__
  recordOnDevice(Site, Value0, Tag0, Value1, Tag1);
#else
  Record R = {};
  fillRecord(R, Site, Value0, Tag0, Value1, Tag1);
  R.Ready = 1;
  submitRecord(R);
#endif
}

/// Looks \p Address up in the registry of the side the code runs on.
static GPUGUARD_HD bool lookupAllocation(const void *Address,
                                         AllocationEntry &Found) {
#ifdef __CUDA_ARCH__
  // A table the host pushes while the kernel runs only adds allocations the
  // kernel was not launched with (freed ones stay until a device-wide
  // synchronisation), but the push itself is not atomic: read it under the
  // sequence lock.
  return findAllocationStable(ModuleState,
                              reinterpret_cast<unsigned long long>(Address),
                              Found, DeviceFence());
#else
  return findAllocation(Address, Found);
#endif
}
#endif // !GPUGUARD_RT_DISABLE

} // namespace detail

//===----------------------------------------------------------------------===//
// CUDA device checks
//===----------------------------------------------------------------------===//

/// 0 <= Index < Bound; otherwise records {Index, Bound} and returns I(0).
template <class I, class B>
GPUGUARD_HD I checkIndex(I Index, B Bound, SiteRef Site) {
#ifndef GPUGUARD_RT_DISABLE
  if (!detail::indexBelow(Index, Bound)) {
    unsigned long long IndexBits, BoundBits;
    unsigned char IndexTag, BoundTag;
    detail::encodeInteger(Index, IndexBits, IndexTag);
    detail::encodeInteger(Bound, BoundBits, BoundTag);
    detail::record(Site, IndexBits, IndexTag, BoundBits, BoundTag);
    return I(0);
  }
#endif
  return Index;
}

/// Base + Index inside the registered live allocation that contains Base;
/// otherwise records {Index, extent in elements from Base} and returns I(0).
/// When no registered allocation contains Base, returns Index unchanged and
/// records nothing.
template <class T, class I>
GPUGUARD_HD I checkPointerIndex(const T *Base, I Index, SiteRef Site) {
#ifndef GPUGUARD_RT_DISABLE
  AllocationEntry Allocation;
  if (!detail::lookupAllocation(Base, Allocation))
    return Index;
  unsigned long long Extent;
  if (!detail::elementInside(Allocation,
                             reinterpret_cast<unsigned long long>(Base),
                             sizeof(T), Index, Extent)) {
    unsigned long long IndexBits;
    unsigned char IndexTag;
    detail::encodeInteger(Index, IndexBits, IndexTag);
    detail::record(Site, IndexBits, IndexTag, Extent, UnsignedValue);
    return I(0);
  }
#endif
  return Index;
}

/// An integer divisor of 0 is recorded {Divisor} and replaced by T(1).
template <class T> GPUGUARD_HD T checkDivisor(T Divisor, SiteRef Site) {
#ifndef GPUGUARD_RT_DISABLE
  if (Divisor == T(0)) {
    unsigned long long Bits;
    unsigned char Tag;
    detail::encodeInteger(Divisor, Bits, Tag);
    detail::record(Site, Bits, Tag);
    return T(1);
  }
#endif
  return Divisor;
}

/// A NaN or infinity is recorded {Value} and replaced by F(0).
template <class F> GPUGUARD_HD F checkFinite(F Value, SiteRef Site) {
#ifndef GPUGUARD_RT_DISABLE
  if (!detail::isFinite(Value)) {
    detail::record(Site, detail::bitsOfDouble(static_cast<double>(Value)),
                   FloatValue);
    return F(0);
  }
#endif
  return Value;
}

//===----------------------------------------------------------------------===//
// CUDA host side
//===----------------------------------------------------------------------===//

/// Reports the records that device buffers (of the current device) hold.
/// Runs by itself after the synchronising wrappers and at exit; host records
/// are reported as they are made. Thread-safe.
#ifdef GPUGUARD_RT_DISABLE
inline void drain() {}
#else
void drain();
#endif

/// Prints the device memory that the CUDA wrappers allocated and that is
/// still live, grouped by the line that allocated it, largest first: what
/// runs at exit (report_leaks=1), on request. Thread-safe.
#ifdef GPUGUARD_RT_DISABLE
inline void reportLiveAllocations() {}
#else
void reportLiveAllocations();
#endif

#ifdef GPUGUARD_RT_HAS_CUDA_HOST

#ifndef GPUGUARD_RT_DISABLE
namespace detail {
#ifdef CUDART_VERSION
void reportApiFailure(SiteRef Site, cudaError_t Result);
#endif
/// Registers borrowed device memory (registerBorrowedAllocation) and
/// brings the device's copy of the registry up to date.
void borrowDeviceMemory(const void *Base, unsigned long long Bytes,
                        BorrowedMemory *Owner);
/// Results of other APIs (CUresult, cuBLAS status, ...): reported by number.
void reportApiFailure(SiteRef Site, long long Result);
template <class E> inline void reportApiFailure(SiteRef Site, E Result) {
  reportApiFailure(Site, static_cast<long long>(Result));
}
} // namespace detail
#endif

/// Reports a result other than success (0) at \p Site and returns it.
template <class E> inline E checkApi(E Result, SiteRef Site) {
#ifndef GPUGUARD_RT_DISABLE
  if (Result != E())
    detail::reportApiFailure(Site, Result);
#endif
  return Result;
}

/// Right after a launch statement: reports a launch error
/// (cudaPeekAtLastError, which leaves it for the program to see), and
/// remembers \p Site as the last launch, so that an asynchronous error found
/// at the next synchronisation is reported at it.
#ifdef GPUGUARD_RT_DISABLE
inline void checkLaunch(SiteRef) {}
#else
void checkLaunch(SiteRef Site);
#endif

#ifdef GPUGUARD_RT_DISABLE
inline void beforeLaunch() {}
#else
/// Marks a launch under way, from beforeLaunch() to the end of the launch's
/// full expression, where this temporary dies: until then a device-wide
/// synchronisation cannot tell whether the kernel runs, and must not empty
/// the record buffers it may write into.
class LaunchInFlight {
public:
  LaunchInFlight();
  LaunchInFlight(LaunchInFlight &&Other) noexcept : Active(Other.Active) {
    Other.Active = false;
  }
  LaunchInFlight(const LaunchInFlight &) = delete;
  LaunchInFlight &operator=(const LaunchInFlight &) = delete;
  LaunchInFlight &operator=(LaunchInFlight &&) = delete;
  ~LaunchInFlight();

private:
  bool Active = true;
};

/// Right before every launch, `(beforeLaunch(), k<<<g, b>>>(...))`: drops
/// registry entries of borrowed memory that has been freed since, brings the
/// device's copy up to date, and marks the launch under way until the end of
/// the statement.
LaunchInFlight beforeLaunch();
#endif

/// Registers the storage of a LibTorch tensor whose data pointer the program
/// takes (`tensorMemory(t).data_ptr<float>()`) and returns the tensor, so
/// that raw-pointer accesses of kernels into it are checked against the
/// storage's bytes. Only CUDA tensors are registered. The entry lives while
/// the storage does and keeps that data pointer; a view's storage is the
/// whole allocation, so accesses past a view but inside its storage are not
/// reported. Written for any type with LibTorch's tensor interface, so this
/// header needs no LibTorch headers.
template <class TensorT>
inline const TensorT &tensorMemory(const TensorT &Tensor) {
#ifndef GPUGUARD_RT_DISABLE
  if (!Tensor.defined() || !Tensor.is_cuda() || !Tensor.has_storage())
    return Tensor;
  const auto &Storage = Tensor.storage();
  const void *Base = Storage.data();
  unsigned long long Bytes = Storage.nbytes();
  if (!Base || Bytes == 0)
    return Tensor;
  using WeakStorage = decltype(Storage.getWeakStorageImpl());
  class StorageOwner final : public detail::BorrowedMemory {
  public:
    StorageOwner(WeakStorage Weak, const void *Base)
        : Weak(static_cast<WeakStorage &&>(Weak)), Base(Base) {}
    bool alive() const override {
      auto Strong = Weak.lock();
      return Strong && Strong->data() == Base;
    }

  private:
    WeakStorage Weak;
    const void *Base;
  };
  detail::borrowDeviceMemory(
      Base, Bytes, new StorageOwner(Storage.getWeakStorageImpl(), Base));
#endif
  return Tensor;
}

#ifdef CUDART_VERSION
// Drop-in wrappers with the CUDA runtime's signatures. The allocation
// wrappers keep the allocation registry; the synchronising ones drain the
// device records afterwards and report an asynchronous error at the last
// launch.
//
// The allocation wrappers take their call site as default arguments, so
// that an instrumented call keeps its spelling and the registry still
// knows which line made each allocation (the instrumented copy's #line
// directives name the original file).
#define GPUGUARD_RT_CALL_SITE                                                  \
  const char *File = __builtin_FILE(), unsigned Line = __builtin_LINE()
#define GPUGUARD_RT_UNNAMED_CALL_SITE                                          \
  const char * = __builtin_FILE(), unsigned = __builtin_LINE()
#ifdef GPUGUARD_RT_DISABLE
inline cudaError_t cudaMalloc(void **DevPtr, size_t Size,
                              GPUGUARD_RT_UNNAMED_CALL_SITE) {
  return ::cudaMalloc(DevPtr, Size);
}
inline cudaError_t cudaMallocManaged(void **DevPtr, size_t Size,
                                     unsigned Flags = cudaMemAttachGlobal,
                                     GPUGUARD_RT_UNNAMED_CALL_SITE) {
  return ::cudaMallocManaged(DevPtr, Size, Flags);
}
inline cudaError_t cudaMallocAsync(void **DevPtr, size_t Size,
                                   cudaStream_t Stream,
                                   GPUGUARD_RT_UNNAMED_CALL_SITE) {
  return ::cudaMallocAsync(DevPtr, Size, Stream);
}
inline cudaError_t cudaMallocAsync(void **DevPtr, size_t Size,
                                   cudaMemPool_t Pool, cudaStream_t Stream,
                                   GPUGUARD_RT_UNNAMED_CALL_SITE) {
  return ::cudaMallocFromPoolAsync(DevPtr, Size, Pool, Stream);
}
inline cudaError_t cudaSetDevice(int Device, GPUGUARD_RT_UNNAMED_CALL_SITE) {
  return ::cudaSetDevice(Device);
}
inline cudaError_t cudaDeviceReset() { return ::cudaDeviceReset(); }
inline cudaError_t cudaFree(void *DevPtr) { return ::cudaFree(DevPtr); }
inline cudaError_t cudaFreeAsync(void *DevPtr, cudaStream_t Stream) {
  return ::cudaFreeAsync(DevPtr, Stream);
}
inline cudaError_t cudaDeviceSynchronize() { return ::cudaDeviceSynchronize(); }
inline cudaError_t cudaStreamSynchronize(cudaStream_t Stream) {
  return ::cudaStreamSynchronize(Stream);
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t Event) {
  return ::cudaEventSynchronize(Event);
}
inline cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t Count,
                              cudaMemcpyKind Kind) {
  return ::cudaMemcpy(Dst, Src, Count, Kind);
}
#else
cudaError_t cudaMalloc(void **DevPtr, size_t Size, GPUGUARD_RT_CALL_SITE);
cudaError_t cudaMallocManaged(void **DevPtr, size_t Size,
                              unsigned Flags = cudaMemAttachGlobal,
                              GPUGUARD_RT_CALL_SITE);
cudaError_t cudaMallocAsync(void **DevPtr, size_t Size, cudaStream_t Stream,
                            GPUGUARD_RT_CALL_SITE);
cudaError_t cudaMallocAsync(void **DevPtr, size_t Size, cudaMemPool_t Pool,
                            cudaStream_t Stream, GPUGUARD_RT_CALL_SITE);
/// Reports a device this process does not see (the count, and the
/// variables that chose it: CUDA_VISIBLE_DEVICES, LOCAL_RANK, RANK) at the
/// call's line, then makes the call.
cudaError_t cudaSetDevice(int Device, GPUGUARD_RT_CALL_SITE);
/// Forgets the wrapped allocations, which the reset releases.
cudaError_t cudaDeviceReset();
cudaError_t cudaFree(void *DevPtr);
cudaError_t cudaFreeAsync(void *DevPtr, cudaStream_t Stream);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaStreamSynchronize(cudaStream_t Stream);
cudaError_t cudaEventSynchronize(cudaEvent_t Event);
cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t Count,
                       cudaMemcpyKind Kind);
#endif

// The typed overloads the CUDA runtime also has.
template <class T>
inline cudaError_t cudaMalloc(T **DevPtr, size_t Size, GPUGUARD_RT_CALL_SITE) {
  return rt::cudaMalloc(reinterpret_cast<void **>(DevPtr), Size, File, Line);
}
template <class T>
inline cudaError_t cudaMallocManaged(T **DevPtr, size_t Size,
                                     unsigned Flags = cudaMemAttachGlobal,
                                     GPUGUARD_RT_CALL_SITE) {
  return rt::cudaMallocManaged(reinterpret_cast<void **>(DevPtr), Size, Flags,
                               File, Line);
}
template <class T>
inline cudaError_t cudaMallocAsync(T **DevPtr, size_t Size, cudaStream_t Stream,
                                   GPUGUARD_RT_CALL_SITE) {
  return rt::cudaMallocAsync(reinterpret_cast<void **>(DevPtr), Size, Stream,
                             File, Line);
}
template <class T>
inline cudaError_t cudaMallocAsync(T **DevPtr, size_t Size, cudaMemPool_t Pool,
                                   cudaStream_t Stream, GPUGUARD_RT_CALL_SITE) {
  return rt::cudaMallocAsync(reinterpret_cast<void **>(DevPtr), Size, Pool,
                             Stream, File, Line);
}

/// The wrappers that report their call's line, as instrumented code calls
/// them: `CalledAt<19>::cudaMalloc(&p, n)`. nvcc's front end joins each
/// statement onto one line before the host compiler sees it, so the
/// __builtin_LINE() of a call on a statement's second line names the first;
/// `gpuguard instrument` writes the line it saw instead.
template <unsigned Line> struct CalledAt {
  static cudaError_t cudaMalloc(void **DevPtr, size_t Size,
                                const char *File = __builtin_FILE()) {
    return rt::cudaMalloc(DevPtr, Size, File, Line);
  }
  template <class T>
  static cudaError_t cudaMalloc(T **DevPtr, size_t Size,
                                const char *File = __builtin_FILE()) {
    return rt::cudaMalloc(reinterpret_cast<void **>(DevPtr), Size, File, Line);
  }
  template <class T>
  static cudaError_t cudaMallocManaged(T **DevPtr, size_t Size,
                                       unsigned Flags = cudaMemAttachGlobal,
                                       const char *File = __builtin_FILE()) {
    return rt::cudaMallocManaged(reinterpret_cast<void **>(DevPtr), Size, Flags,
                                 File, Line);
  }
  template <class T>
  static cudaError_t cudaMallocAsync(T **DevPtr, size_t Size,
                                     cudaStream_t Stream,
                                     const char *File = __builtin_FILE()) {
    return rt::cudaMallocAsync(reinterpret_cast<void **>(DevPtr), Size, Stream,
                               File, Line);
  }
  template <class T>
  static cudaError_t cudaMallocAsync(T **DevPtr, size_t Size,
                                     cudaMemPool_t Pool, cudaStream_t Stream,
                                     const char *File = __builtin_FILE()) {
    return rt::cudaMallocAsync(reinterpret_cast<void **>(DevPtr), Size, Pool,
                               Stream, File, Line);
  }
  static cudaError_t cudaSetDevice(int Device,
                                   const char *File = __builtin_FILE()) {
    return rt::cudaSetDevice(Device, File, Line);
  }
};
#undef GPUGUARD_RT_CALL_SITE
#undef GPUGUARD_RT_UNNAMED_CALL_SITE
#endif // CUDART_VERSION

#endif // GPUGUARD_RT_HAS_CUDA_HOST

} // namespace rt
} // namespace gpuguard

#endif // GPUGUARD_RT_H
