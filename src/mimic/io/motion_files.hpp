// A motion as hrpsys's SequencePlayer loads it from a base name X: X.pos, plus X.zmp and X.hip or (only
// if there is no X.hip) X.waist when they exist (hrpsys-base seqplay::loadPattern).
#pragma once

#include <filesystem>
#include <optional>

#include "mimic/io/sequence.hpp"

namespace mimic::io {

struct MotionFiles {
  PosSequence pos;
  std::optional<WaistSequence> waist;  // written as X.waist (pose); mutually exclusive with hip
  std::optional<HipSequence> hip;      // written as X.hip (orientation only)
  std::optional<ZmpSequence> zmp;      // X.zmp, in the waist frame
};

// "out/boxing.pos" -> "out/boxing"; a path without one of the sequence extensions (.pos, .waist, .hip,
// .zmp) is already a base name and is returned unchanged ("out/boxing.v2" stays as it is).
std::filesystem::path motion_base(const std::filesystem::path& path);

// base + extension without replacing anything: ("out/boxing", ".zmp") -> "out/boxing.zmp".
std::filesystem::path motion_file(const std::filesystem::path& base, const char* extension);

// Reads X.pos (required) and X.zmp, X.hip / X.waist when present. `base` may also name one of the files
// ("X.pos"). As in hrpsys, X.hip wins over X.waist (X.waist is then ignored, with a warning). Every file
// must have the same sample times as X.pos (to 1 microsecond), else InputError naming the first
// disagreeing line: hrpsys plays each file on its own clock, so they would drift apart. X.pos is read in
// `layout` (parse_pos()).
MotionFiles read_motion(const std::filesystem::path& base, PosColumns columns = PosColumns::kAuto,
                        const PosLayout& layout = default_pos_layout());

// Writes X.pos and whichever of X.waist / X.hip / X.zmp are present, all or none (AtomicFileGroup), after
// checking that they share the same times. Having both `waist` and `hip` is a std::invalid_argument:
// hrpsys would ignore X.waist. Afterwards, any X.waist, X.hip or X.zmp left from an earlier run that is
// not part of this motion is removed, since hrpsys would load it with the new X.pos (a stale X.hip even
// overrides a new X.waist). X.pos is written in `layout` (format_pos()).
void write_motion(const std::filesystem::path& base, const MotionFiles& motion,
                  const PosWriteOptions& options = {}, const PosLayout& layout = default_pos_layout());

}  // namespace mimic::io
