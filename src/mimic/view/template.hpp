// The viewer's template files (share/view/viewer.html and viewer.js), embedded at build time as C++
// strings by cmake/MimicViewer.cmake (generated view_template.cpp in the build folder).
#pragma once

namespace mimic::view {

extern const char* const kViewerHtml;    // share/view/viewer.html
extern const char* const kViewerScript;  // share/view/viewer.js

}  // namespace mimic::view
