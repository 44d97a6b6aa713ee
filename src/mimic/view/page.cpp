#include "mimic/view/page.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "mimic/core/atomic_file.hpp"
#include "mimic/core/error.hpp"
#include "mimic/core/text_file.hpp"
#include "mimic/io/json.hpp"
#include "mimic/view/template.hpp"

#ifndef MIMIC_THREE_JS
#define MIMIC_THREE_JS "/usr/share/javascript/three/three.min.js"
#endif

namespace mimic::view {
namespace {

// A number with at most `decimals` decimals and no trailing zeros ("0.25", "-1", "null" for NaN).
void put(std::string& out, double x, int decimals = 4) {
  if (!std::isfinite(x)) {
    out += "null";
    return;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, x);
  std::string text = buffer;
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  if (text == "-0") text = "0";
  out += text;
}

template <class Vector>
void put_array(std::string& out, const Vector& v, int decimals = 4) {
  out += '[';
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (i > 0) out += ',';
    put(out, v[i], decimals);
  }
  out += ']';
}

// Placements and reference origins, the bulk of the page: integers of 1e-4 (m or quaternion components),
// which the page scales back ("12345" instead of "1.2345" saves a quarter of the page).
constexpr double kFixedUnit = 1e-4;

template <class Vector>
void put_fixed(std::string& out, const Vector& v) {
  out += '[';
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (i > 0) out += ',';
    out += std::isfinite(v[i]) ? std::to_string(std::llround(v[i] / kFixedUnit)) : std::string("null");
  }
  out += ']';
}

void put_ints(std::string& out, const std::vector<int>& v) {
  out += '[';
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(v[i]);
  }
  out += ']';
}

// A JSON string that cannot end the <script> element it sits in ("</" written as "<\/").
std::string script_string(const std::string& text) {
  std::string quoted = io::json_quote(text), out;
  for (std::size_t i = 0; i < quoted.size(); ++i) {
    out += quoted[i];
    if (quoted[i] == '<' && i + 1 < quoted.size() && quoted[i + 1] == '/') out += '\\';
  }
  return out;
}

void put_shape(std::string& out, const geometry::CollisionShape& shape) {
  out += "{\"body\":" + std::to_string(shape.body);
  if (shape.kind == geometry::ShapeKind::kCapsule) {
    out += ",\"type\":\"capsule\",\"a\":";
    put_array(out, shape.a);
    out += ",\"b\":";
    put_array(out, shape.b);
    out += ",\"radius\":";
    put(out, shape.radius);
  } else {
    out += ",\"type\":\"box\",\"position\":";
    put_array(out, shape.placement.p);
    out += ",\"quaternion\":";
    put_array(out, spatial::Quat(shape.placement.R).coeffs());
    out += ",\"half\":";
    put_array(out, shape.half);
  }
  out += '}';
}

// Text for an HTML element (the page's title: a file name).
std::string html_text(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
  return out;
}

// Replaces the one occurrence of `marker` in `page` (a template without it is a build error of ours).
void fill(std::string& page, const std::string& marker, const std::string& text) {
  const auto at = page.find(marker);
  if (at == std::string::npos) throw std::logic_error("viewer template: no " + marker);
  page.replace(at, marker.size(), text);
}

}  // namespace

std::string scene_json(const Scene& scene) {
  std::string out = "{\"title\":" + script_string(scene.title) + ",\"bodies\":[";
  for (std::size_t b = 0; b < scene.body_names.size(); ++b) {
    if (b > 0) out += ',';
    out += "{\"name\":";
    out += script_string(scene.body_names[b]);
    out += ",\"parent\":";
    out += std::to_string(scene.parents[b]);
    out += '}';
  }
  out += "],\"shapes\":[";
  for (std::size_t s = 0; s < scene.shapes.size(); ++s) {
    if (s > 0) out += ',';
    put_shape(out, scene.shapes[s]);
  }
  out += "],\"times\":";
  put_array(out, Eigen::Map<const Eigen::VectorXd>(scene.times.data(),
                                                   static_cast<Eigen::Index>(scene.times.size())));
  out += ",\"samples\":";
  put_ints(out, scene.samples);
  out += ",\"fixed_unit\":";
  put(out, kFixedUnit, 6);
  out += ",\"placements\":[";
  for (Eigen::Index f = 0; f < scene.placements.cols(); ++f) {
    if (f > 0) out += ',';
    put_fixed(out, scene.placements.col(f));
  }
  out += "],\"zmp_from_file\":";
  out += scene.zmp_from_file ? "true" : "false";
  out += ",\"zmp\":[";
  for (Eigen::Index f = 0; f < scene.zmp.cols(); ++f) {
    if (f > 0) out += ',';
    put_array(out, scene.zmp.col(f));
  }
  out += "],\"support\":[";
  for (std::size_t f = 0; f < scene.support.size(); ++f) {
    out += f > 0 ? ",[" : "[";
    put(out, scene.ground_heights[f]);
    for (const Eigen::Vector2d& p : scene.support[f]) {
      out += ',';
      put(out, p.x());
      out += ',';
      put(out, p.y());
    }
    out += ']';
  }
  out += "],\"reference\":[";
  for (Eigen::Index f = 0; f < scene.reference.cols(); ++f) {
    if (f > 0) out += ',';
    put_fixed(out, scene.reference.col(f));
  }
  out += "],\"violations\":[";
  for (std::size_t i = 0; i < scene.violations.size(); ++i) {
    const MarkedViolation& v = scene.violations[i];
    if (i > 0) out += ',';
    out += "{\"label\":";
    out += script_string(v.label);
    out += ",\"kind\":\"";
    out += evaluation::to_string(v.kind);
    out += "\",\"bodies\":";
    put_ints(out, v.bodies);
    out += ",\"frames\":";
    put_ints(out, v.frames);
    out += '}';
  }
  out += "]}";
  return out;
}

std::filesystem::path three_js_path() {
  if (const char* env = std::getenv("MIMIC_THREE_JS"); env != nullptr && *env != '\0') return env;
  return MIMIC_THREE_JS;
}

std::string page_html(const Scene& scene, const std::string& three_js) {
  std::string page = kViewerHtml;
  // Filled last to first so that no inlined text is searched for a marker.
  fill(page, "/*MIMIC_VIEWER_SCRIPT*/", kViewerScript);
  fill(page, "/*MIMIC_SCENE*/", scene_json(scene));
  fill(page, "/*MIMIC_THREE_JS*/", three_js);
  fill(page, "MIMIC_TITLE", html_text(scene.title));
  return page;
}

void write_page(const std::filesystem::path& html, const Scene& scene) {
  const std::filesystem::path three = three_js_path();
  if (!std::filesystem::is_regular_file(three))
    throw InputError(three.string() +
                     ": three.js not found (install the Debian package libjs-three, or set MIMIC_THREE_JS)");
  const std::string page = page_html(scene, core::read_text_file(three.string()));
  write_file_atomically(html, [&](std::ostream& out) { out << page; });
}

}  // namespace mimic::view
