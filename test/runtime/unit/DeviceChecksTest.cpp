//===- DeviceChecksTest.cpp - The device checks, compiled as host code ----===//
//
// rt.h's checks compiled as plain host C++: the same logic runs on the
// device, with records going to the host reporter here; a report of a check
// that ran on the host names its function, with no block or thread.
//
//===----------------------------------------------------------------------===//

#include "Reporter.h"

#include "gpuguard/rt.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace gpuguard::rt;

namespace {

constexpr unsigned long long Key = 0xfeedULL;

const SiteInfo Sites[] = {
    {"/src/k.cu", 10, 5, "gather", "cuda-unchecked-index", IndexBound, -1, "i"},
    {"/src/k.cu", 11, 7, "gather", "cuda-unchecked-index", PointerBound, -1,
     "ids"},
    {"/src/k.cu", 12, 9, "gather", "cuda-div-by-zero", NonZeroDivisor, -1, "n"},
    {"/src/k.cu", 13, 3, "gather", "cuda-nan-to-index", FiniteBeforeCast, -1,
     "x"},
};
const SiteTableRegistrar Registrar(Key, Sites, 4,
                                   GPUGUARD_SITE_TABLE_ABI_VERSION);

constexpr SiteRef IndexSite{Key, 0};
constexpr SiteRef PointerSite{Key, 1};
constexpr SiteRef DivisorSite{Key, 2};
constexpr SiteRef FiniteSite{Key, 3};

class DeviceChecksTest : public ::testing::Test {
protected:
  void SetUp() override {
    detail::resetForTesting(detail::Options(), [this](const std::string &L) {
      Lines.push_back(L);
    });
    detail::observeRecordsForTesting(
        [this](const Record &R) { Records.push_back(R); });
  }
  void TearDown() override {
    detail::observeRecordsForTesting(nullptr);
    detail::Options Quiet;
    Quiet.PrintSummary = false;
    detail::resetForTesting(Quiet, nullptr);
  }

  std::vector<std::string> Lines;
  std::vector<Record> Records;
};

TEST_F(DeviceChecksTest, RecordIsFixedSizePlainData) {
  EXPECT_EQ(sizeof(Record), 64u);
  EXPECT_TRUE(std::is_trivially_copyable<Record>::value);
  EXPECT_TRUE(std::is_standard_layout<Record>::value);
  EXPECT_TRUE(std::is_trivially_copyable<SiteRef>::value);
}

TEST_F(DeviceChecksTest, IndexInRangePasses) {
  EXPECT_EQ(checkIndex(0, 10, IndexSite), 0);
  EXPECT_EQ(checkIndex(9, 10, IndexSite), 9);
  EXPECT_EQ(checkIndex(9u, 10ll, IndexSite), 9u);
  EXPECT_EQ(checkIndex(static_cast<std::size_t>(3), 4, IndexSite), 3u);
  EXPECT_EQ(checkIndex(static_cast<short>(7), 8u, IndexSite), 7);
  EXPECT_TRUE(Records.empty());
  EXPECT_TRUE(Lines.empty());
}

TEST_F(DeviceChecksTest, IndexOutOfRangeRecordsAndReturnsZero) {
  EXPECT_EQ(checkIndex(10, 10, IndexSite), 0);
  ASSERT_EQ(Records.size(), 1u);
  const Record &R = Records[0];
  EXPECT_EQ(R.FileKey, Key);
  EXPECT_EQ(R.Index, 0u);
  EXPECT_EQ(R.Values[0], 10u);
  EXPECT_EQ(R.Tags[0], SignedValue);
  EXPECT_EQ(R.Values[1], 10u);
  EXPECT_EQ(R.Tags[1], SignedValue);
  for (unsigned Axis = 0; Axis < 3; ++Axis) {
    EXPECT_EQ(R.Block[Axis], 0u);
    EXPECT_EQ(R.Thread[Axis], 0u);
  }
  EXPECT_EQ(R.Ready, 1u);
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_EQ(Lines[0],
            "/src/k.cu:10:5: runtime error: index 'i' out of bounds (index 10, "
            "bound 10) in gather "
            "[cuda-unchecked-index]");
}

TEST_F(DeviceChecksTest, IndexComparedAsMathematicalIntegers) {
  // -1 converted to size_t would pass a plain `<`.
  EXPECT_EQ(checkIndex(-1, static_cast<std::size_t>(10), IndexSite), 0);
  // A negative bound admits no index, not a huge one.
  EXPECT_EQ(checkIndex(3u, -5, IndexSite), 0u);
  EXPECT_EQ(checkIndex(0, 0, IndexSite), 0);
  EXPECT_EQ(
      checkIndex(std::numeric_limits<unsigned long long>::max(), 5, IndexSite),
      0u);
  // Even below the largest bound, -2 is no index.
  EXPECT_EQ(
      checkIndex(-2, std::numeric_limits<unsigned long long>::max(), IndexSite),
      0);
  ASSERT_EQ(Records.size(), 5u);
  EXPECT_EQ(static_cast<long long>(Records[0].Values[0]), -1);
  EXPECT_EQ(Records[0].Tags[0], SignedValue);
  EXPECT_EQ(Records[0].Tags[1], UnsignedValue);
  EXPECT_EQ(static_cast<long long>(Records[1].Values[1]), -5);
  EXPECT_EQ(Records[3].Values[0],
            std::numeric_limits<unsigned long long>::max());
  EXPECT_EQ(Records[3].Tags[0], UnsignedValue);
  // One site: one report, five occurrences.
  EXPECT_EQ(Lines.size(), 1u);
  EXPECT_EQ(detail::occurrences(IndexSite), 5u);
  EXPECT_NE(Lines[0].find("(index -1, bound 10)"), std::string::npos);
}

TEST_F(DeviceChecksTest, PointerIndexInsideAllocationPasses) {
  std::vector<float> Buffer(100);
  detail::registerAllocation(Buffer.data(), Buffer.size() * sizeof(float));
  EXPECT_EQ(checkPointerIndex(Buffer.data(), 0, PointerSite), 0);
  EXPECT_EQ(checkPointerIndex(Buffer.data(), 99, PointerSite), 99);
  EXPECT_EQ(checkPointerIndex(Buffer.data(), 99ull, PointerSite), 99ull);
  // An interior pointer may look back to the allocation's start.
  EXPECT_EQ(checkPointerIndex(Buffer.data() + 10, -10, PointerSite), -10);
  EXPECT_EQ(checkPointerIndex(Buffer.data() + 10, 89, PointerSite), 89);
  EXPECT_TRUE(Records.empty());
}

TEST_F(DeviceChecksTest, PointerIndexOutsideAllocationRecordsExtent) {
  std::vector<double> Buffer(100);
  detail::registerAllocation(Buffer.data(), Buffer.size() * sizeof(double));
  EXPECT_EQ(checkPointerIndex(Buffer.data(), 100, PointerSite), 0);
  EXPECT_EQ(checkPointerIndex(Buffer.data(), -1, PointerSite), 0);
  EXPECT_EQ(checkPointerIndex(Buffer.data() + 10, 90, PointerSite), 0);
  EXPECT_EQ(checkPointerIndex(Buffer.data() + 10, -11, PointerSite), 0);
  ASSERT_EQ(Records.size(), 4u);
  EXPECT_EQ(Records[0].Values[0], 100u);
  EXPECT_EQ(Records[0].Values[1], 100u);
  EXPECT_EQ(Records[0].Tags[1], UnsignedValue);
  EXPECT_EQ(static_cast<long long>(Records[1].Values[0]), -1);
  // Extent counts the elements from the pointer to the end.
  EXPECT_EQ(Records[2].Values[1], 90u);
  EXPECT_EQ(static_cast<long long>(Records[3].Values[0]), -11);
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_EQ(Lines[0], "/src/k.cu:11:7: runtime error: index 'ids' outside its "
                      "allocation (index 100, extent 100 elements) in gather "
                      "[cuda-unchecked-index]");
}

TEST_F(DeviceChecksTest, PointerIntoUnknownMemoryIsSkipped) {
  std::vector<int> Known(8), Unknown(8);
  detail::registerAllocation(Known.data(), Known.size() * sizeof(int));
  // Not registered: never guessed, even far out of its bounds.
  EXPECT_EQ(checkPointerIndex(Unknown.data(), 1000, PointerSite), 1000);
  // Freed: forgotten.
  detail::unregisterAllocation(Known.data());
  EXPECT_EQ(checkPointerIndex(Known.data(), 8, PointerSite), 8);
  EXPECT_TRUE(Records.empty());
}

TEST_F(DeviceChecksTest, PartialTrailingElementIsOutside) {
  // 10 bytes hold two whole 4-byte elements.
  alignas(4) unsigned char Bytes[10];
  detail::registerAllocation(Bytes, sizeof(Bytes));
  const auto *Words = reinterpret_cast<const std::uint32_t *>(Bytes);
  EXPECT_EQ(checkPointerIndex(Words, 1, PointerSite), 1);
  EXPECT_EQ(checkPointerIndex(Words, 2, PointerSite), 0);
  ASSERT_EQ(Records.size(), 1u);
  EXPECT_EQ(Records[0].Values[1], 2u);
}

TEST(AllocationTableTest, FindsTheContainingEntry) {
  const AllocationEntry Table[] = {
      {0x1000, 0x100}, {0x2000, 0x10}, {0x3000, 0x1000}};
  AllocationEntry Found = {0, 0};
  EXPECT_TRUE(detail::findAllocationIn(Table, 3, 0x1000, Found));
  EXPECT_EQ(Found.Base, 0x1000u);
  EXPECT_TRUE(detail::findAllocationIn(Table, 3, 0x10ff, Found));
  EXPECT_EQ(Found.Base, 0x1000u);
  EXPECT_TRUE(detail::findAllocationIn(Table, 3, 0x200f, Found));
  EXPECT_EQ(Found.Base, 0x2000u);
  EXPECT_TRUE(detail::findAllocationIn(Table, 3, 0x3fff, Found));
  EXPECT_EQ(Found.Base, 0x3000u);
  // Before the first, in a gap, just past an end, after the last.
  EXPECT_FALSE(detail::findAllocationIn(Table, 3, 0xfff, Found));
  EXPECT_FALSE(detail::findAllocationIn(Table, 3, 0x1100, Found));
  EXPECT_FALSE(detail::findAllocationIn(Table, 3, 0x2010, Found));
  EXPECT_FALSE(detail::findAllocationIn(Table, 3, 0x4000, Found));
  EXPECT_FALSE(detail::findAllocationIn(Table, 0, 0x1000, Found));
  // A table cut short (capacity) still answers for what it holds.
  EXPECT_TRUE(detail::findAllocationIn(Table, 2, 0x2000, Found));
  EXPECT_FALSE(detail::findAllocationIn(Table, 2, 0x3000, Found));
}

TEST_F(DeviceChecksTest, DivisorZeroBecomesOne) {
  EXPECT_EQ(checkDivisor(7, DivisorSite), 7);
  EXPECT_EQ(checkDivisor(-1, DivisorSite), -1);
  EXPECT_TRUE(Records.empty());
  EXPECT_EQ(checkDivisor(0, DivisorSite), 1);
  EXPECT_EQ(checkDivisor(0u, DivisorSite), 1u);
  EXPECT_EQ(checkDivisor(static_cast<long long>(0), DivisorSite), 1);
  ASSERT_EQ(Records.size(), 3u);
  EXPECT_EQ(Records[0].Values[0], 0u);
  EXPECT_EQ(Records[0].Tags[0], SignedValue);
  EXPECT_EQ(Records[0].Tags[1], NoValue);
  EXPECT_EQ(Records[1].Tags[0], UnsignedValue);
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_EQ(Lines[0], "/src/k.cu:12:9: runtime error: division by zero in 'n' "
                      "(divisor 0) in gather [cuda-div-by-zero]");
}

TEST_F(DeviceChecksTest, FiniteValuesPass) {
  EXPECT_EQ(checkFinite(1.5f, FiniteSite), 1.5f);
  EXPECT_EQ(checkFinite(-0.0, FiniteSite), -0.0);
  EXPECT_EQ(checkFinite(std::numeric_limits<float>::max(), FiniteSite),
            std::numeric_limits<float>::max());
  EXPECT_EQ(checkFinite(std::numeric_limits<double>::denorm_min(), FiniteSite),
            std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(checkFinite(std::numeric_limits<double>::lowest(), FiniteSite),
            std::numeric_limits<double>::lowest());
  EXPECT_TRUE(Records.empty());
}

TEST_F(DeviceChecksTest, NonFiniteValuesBecomeZero) {
  EXPECT_EQ(checkFinite(std::nanf(""), FiniteSite), 0.0f);
  EXPECT_EQ(checkFinite(std::numeric_limits<float>::infinity(), FiniteSite),
            0.0f);
  EXPECT_EQ(checkFinite(-std::numeric_limits<double>::infinity(), FiniteSite),
            0.0);
  EXPECT_EQ(checkFinite(std::numeric_limits<double>::quiet_NaN(), FiniteSite),
            0.0);
  EXPECT_EQ(
      checkFinite(std::numeric_limits<long double>::infinity(), FiniteSite),
      0.0L);
  ASSERT_EQ(Records.size(), 5u);
  EXPECT_EQ(Records[0].Tags[0], FloatValue);
  EXPECT_TRUE(std::isnan(detail::doubleOfBits(Records[0].Values[0])));
  EXPECT_EQ(detail::doubleOfBits(Records[1].Values[0]),
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(detail::formatValue(Records[2].Values[0], Records[2].Tags[0]),
            "-inf");
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_EQ(Lines[0], "/src/k.cu:13:3: runtime error: non-finite value 'x' "
                      "before an integer cast (value nan) in gather "
                      "[cuda-nan-to-index]");
}

TEST(ValueFormatTest, FormatsByTag) {
  EXPECT_EQ(
      detail::formatValue(static_cast<unsigned long long>(-42ll), SignedValue),
      "-42");
  EXPECT_EQ(detail::formatValue(~0ull, UnsignedValue), "18446744073709551615");
  EXPECT_EQ(detail::formatValue(detail::bitsOfDouble(2.5), FloatValue), "2.5");
  EXPECT_EQ(detail::formatValue(0, NoValue), "?");
}

} // namespace
