# Generates CheckDescriptions.inc: each check's summary for SARIF's rules,
# taken from the first paragraph of docs/checks/<module>/<check>.md so that
# the docs stay the one place that says what a check flags, and the whole
# page, from which the rules' help is taken. The same
# paragraph is read by tools/check_catalog.py; test/tool/consistency.test
# fails when the rules built from here disagree with it.
file(GLOB GPUGUARD_CHECK_PAGES CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/docs/checks/*/*.md)
list(SORT GPUGUARD_CHECK_PAGES)
set(GPUGUARD_CHECK_DESCRIPTIONS "")
foreach(Page ${GPUGUARD_CHECK_PAGES})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${Page})
  get_filename_component(Check ${Page} NAME_WE)
  file(READ ${Page} Text)
  # How sure the rule is in the default profile, as CodeQL's rule metadata
  # says it: the page's `Precision: <level>` line.
  set(Precision "")
  if(Text MATCHES "\nPrecision: (very-high|high|medium|low)")
    set(Precision "${CMAKE_MATCH_1}")
  else()
    message(FATAL_ERROR "${Page} has no 'Precision: very-high|high|medium|low' line")
  endif()
  set(Page "${Text}")
  string(FIND "${Page}" ")gpuguard_page\"" Clash)
  if(NOT Clash EQUAL -1)
    message(FATAL_ERROR "${Page} contains ')gpuguard_page\"', which ends the raw string it is embedded in")
  endif()
  # The paragraph after the "# <check>" title.
  string(FIND "${Text}" "\n\n" Start)
  if(Start EQUAL -1)
    continue()
  endif()
  math(EXPR Start "${Start} + 2")
  string(SUBSTRING "${Text}" ${Start} -1 Text)
  string(FIND "${Text}" "\n\n" End)
  string(SUBSTRING "${Text}" 0 ${End} Summary)
  string(REPLACE "\n" " " Summary "${Summary}")
  string(REPLACE "`" "" Summary "${Summary}")
  string(STRIP "${Summary}" Summary)
  string(REPLACE "\\" "\\\\" Summary "${Summary}")
  string(REPLACE "\"" "\\\"" Summary "${Summary}")
  string(APPEND GPUGUARD_CHECK_DESCRIPTIONS
    "GPUGUARD_CHECK_DESCRIPTION(\"${Check}\",\n  \"${Summary}\",\n  \"${Precision}\",\n  R\"gpuguard_page(${Page})gpuguard_page\")\n")
endforeach()
# Written as is (no @VAR@ substitution inside the pages), and only when it
# changed, so that an unrelated reconfigure rebuilds nothing.
set(GPUGUARD_CHECK_DESCRIPTIONS_FILE
  ${PROJECT_BINARY_DIR}/lib/Output/CheckDescriptions.inc)
set(GPUGUARD_OLD_CHECK_DESCRIPTIONS "")
if(EXISTS ${GPUGUARD_CHECK_DESCRIPTIONS_FILE})
  file(READ ${GPUGUARD_CHECK_DESCRIPTIONS_FILE} GPUGUARD_OLD_CHECK_DESCRIPTIONS)
endif()
if(NOT GPUGUARD_OLD_CHECK_DESCRIPTIONS STREQUAL GPUGUARD_CHECK_DESCRIPTIONS)
  file(WRITE ${GPUGUARD_CHECK_DESCRIPTIONS_FILE}
    "${GPUGUARD_CHECK_DESCRIPTIONS}")
endif()
