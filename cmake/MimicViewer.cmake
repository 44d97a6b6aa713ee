# `mimic view` (view/page.hpp): the page template share/view/viewer.{html,js} becomes C++ strings at
# build time (cmake/embed_viewer.cmake -> <build>/generated/view_template.cpp, part of mimic_view), so
# the installed binary needs no template file; three.js is Debian's libjs-three, read when a page is written
# and inlined in it. Its path is found here; $MIMIC_THREE_JS overrides it at run time.
find_file(MIMIC_THREE_JS three.min.js PATHS /usr/share/javascript/three NO_DEFAULT_PATH
          DOC "three.min.js that `mimic view` inlines (Debian package libjs-three)")
if(NOT MIMIC_THREE_JS)
  message(WARNING "three.min.js not found (Debian package libjs-three): `mimic view` fails until it is "
                  "installed or MIMIC_THREE_JS names it")
  set(mimic_three_js /usr/share/javascript/three/three.min.js)
else()
  set(mimic_three_js ${MIMIC_THREE_JS})
endif()

set(mimic_view_template ${PROJECT_BINARY_DIR}/generated/view_template.cpp)
add_custom_command(
  OUTPUT ${mimic_view_template}
  COMMAND ${CMAKE_COMMAND} -DHTML=${PROJECT_SOURCE_DIR}/share/view/viewer.html
          -DSCRIPT=${PROJECT_SOURCE_DIR}/share/view/viewer.js -DOUTPUT=${mimic_view_template}
          -P ${PROJECT_SOURCE_DIR}/cmake/embed_viewer.cmake
  DEPENDS ${PROJECT_SOURCE_DIR}/share/view/viewer.html ${PROJECT_SOURCE_DIR}/share/view/viewer.js
          ${PROJECT_SOURCE_DIR}/cmake/embed_viewer.cmake
  COMMENT "Embedding the viewer template (share/view)")
target_sources(mimic_view PRIVATE ${mimic_view_template})
set_property(SOURCE ${PROJECT_SOURCE_DIR}/src/mimic/view/page.cpp APPEND PROPERTY
             COMPILE_DEFINITIONS MIMIC_THREE_JS="${mimic_three_js}")
