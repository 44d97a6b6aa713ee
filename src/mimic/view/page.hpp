// The page of `mimic view`: one self-contained HTML file that opens offline, made of the template
// share/view/viewer.{html,js} (turned into C++ strings at build time by cmake/MimicViewer.cmake, so the
// installed binary carries it), three.js from Debian's libjs-three (inlined) and the scene as JSON.
#pragma once

#include <filesystem>
#include <string>

#include "mimic/view/scene.hpp"

namespace mimic::view {

// The scene as the page reads it: bodies with their shapes (body frame), per-frame placements, ZMP, support
// polygons, reference origins and violations. Lengths to 0.1 mm and quaternions to 1e-4 (far below a
// pixel of a robot on a screen) keep the page small: the placements and reference origins, most of it, as
// integers of `fixed_unit` (1e-4); NaN (no ZMP) is written as null.
std::string scene_json(const Scene& scene);

// three.min.js: $MIMIC_THREE_JS when set, else the file found at configure time (Debian's libjs-three,
// /usr/share/javascript/three/three.min.js).
std::filesystem::path three_js_path();

// The page: the template with three.js, the viewer script and the scene inlined.
std::string page_html(const Scene& scene, const std::string& three_js);

// Reads three.js (InputError naming the file and the Debian package when it is missing) and writes the page
// to `html` atomically (OutputError when it cannot be written).
void write_page(const std::filesystem::path& html, const Scene& scene);

}  // namespace mimic::view
