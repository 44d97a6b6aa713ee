// The pathological inputs of the mocap readers: truncated and byte-flipped copies of the shared files and
// random garbage, all from fixed seeds. Shared by the robustness test (tests/mocap/robustness.cpp: they end
// in an InputError or a usable clip) and the benchmark (bench/mocap.cpp: how long they take), so that both
// look at the same bytes. No GoogleTest here: the benchmark includes it too.
#pragma once

#include <algorithm>
#include <cstddef>
#include <random>
#include <utility>
#include <vector>

namespace mimic::test {

// Files of ../shared/mocap that are corrupted (relative to ../shared/mocap).
inline constexpr const char* kCorruptedSharedFiles[] = {
    "bvh/assimp__Boxing_Toes.bvh",
    "bvh/assimp__cmu_01_03.bvh",
    "bvh/bvh11__cmu_131_01.bvh",
    "bvh/bvh11__cmu_scaled_131_01.bvh",
    "bvh/bvh11__cmu_131_03.bvh",
    "bvh/makehuman__walk1.bvh",
    "bvh/makehuman__benchmark_pose.bvh",
    "bvh/bvhio__example_blanklines.bvh",
    "c3d/c3dorg-s01__Eb015pi.c3d",
    "c3d/c3dorg-s01__Eb015pr.c3d",
    "c3d/c3dorg-s01__Eb015vi.c3d",
    "c3d/c3dorg-s01__Eb015vr.c3d",
    "c3d/c3dorg-s01__Eb015si.c3d",
    "c3d/c3dorg-s01__Eb015sr.c3d",
    "c3d/btkdata__vicon_shd01.c3d",
    "c3d/btkdata__optitrack_mocap36.c3d",
    "c3d/c3dorg-s00__nexgen_test1.c3d",
    "c3d/ezc3d__Qualisys.c3d",
    "c3d/c3dorg-s34__xsens_AlbertoINT.c3d",
};

// Lengths at which a file of `size` bytes is cut, all shorter than the file: the first bytes, around the
// 512-byte C3D blocks, sixteenths of the file, one byte short, and 8 random places.
inline std::vector<std::size_t> truncation_lengths(std::size_t size) {
  std::vector<std::size_t> lengths = {0, 1, 2, 3, 10, 100, 511, 512, 513, 1024, 1500, 2048, 4096};
  for (std::size_t k = 1; k < 16; ++k) lengths.push_back(size * k / 16);
  lengths.push_back(size - 1);
  std::mt19937 rng(1234);
  for (int k = 0; k < 8; ++k) lengths.push_back(std::uniform_int_distribution<std::size_t>(0, size - 1)(rng));
  std::erase_if(lengths, [size](std::size_t length) { return length >= size; });
  return lengths;
}

// One corrupted copy: bytes XOR-ed at these places (XOR-ing again restores the original).
using ByteFlips = std::vector<std::pair<std::size_t, char>>;

constexpr int kByteFlipVariants = 40;

// 40 sets of 1 to 16 flips. Half of them within the first 4 KB, where the headers, hierarchy and
// parameters live (where a reader takes decisions); the others anywhere.
inline std::vector<ByteFlips> byte_flip_variants(std::size_t size) {
  std::mt19937 rng(20240611u + static_cast<unsigned>(size));
  std::vector<ByteFlips> variants;
  for (int variant = 0; variant < kByteFlipVariants; ++variant) {
    const std::size_t region = variant % 2 == 0 ? std::min<std::size_t>(size, 4096) : size;
    const int flips = 1 + static_cast<int>(rng() % 16);
    ByteFlips v;
    for (int i = 0; i < flips; ++i) {
      const std::size_t at = std::uniform_int_distribution<std::size_t>(0, region - 1)(rng);
      v.emplace_back(at, static_cast<char>(1 + rng() % 255));
    }
    variants.push_back(std::move(v));
  }
  return variants;
}

inline void apply_flips(std::vector<char>& bytes, const ByteFlips& flips) {
  for (const auto& [at, mask] : flips) bytes[at] = static_cast<char>(bytes[at] ^ mask);
}

// Random bytes of random length (< 3000) named .bvh (even variants) or .c3d (odd); one in four gets the
// C3D key byte, so that it passes the reader's first check.
struct Garbage {
  std::vector<char> bytes;
  bool c3d = false;
};

constexpr int kGarbageVariants = 200;

inline std::vector<Garbage> garbage_variants() {
  std::mt19937 rng(7);
  std::vector<Garbage> variants;
  for (int variant = 0; variant < kGarbageVariants; ++variant) {
    std::vector<char> bytes(rng() % 3000);
    for (char& b : bytes) b = static_cast<char>(rng());
    if (variant % 4 == 1 && bytes.size() > 2) bytes[1] = 0x50;
    variants.push_back({std::move(bytes), variant % 2 == 1});
  }
  return variants;
}

}  // namespace mimic::test
