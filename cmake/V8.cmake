# Finds V8 10.x as shipped by Debian's libnode108 + libnode-dev and defines the
# imported target hostloop::v8.
#
# HOSTLOOP_V8_ROOT is the folder that holds include/node and lib/<triplet>
# (scripts/setup.sh prints it). Whatever the root, its include/node is used
# only after the check below finds V8_MAJOR_VERSION == 10 in its
# v8-version.h: /usr/include/node on machines with nodejs 20 holds V8 11.3
# headers, which compile against libnode.so.108 and then crash at run time.

set(HOSTLOOP_V8_ROOT "" CACHE PATH "Root of libnode-dev/libnode108 (holds include/node)")
if(NOT HOSTLOOP_V8_ROOT)
  message(FATAL_ERROR
    "HOSTLOOP_V8_ROOT is not set. Run `make build` (it runs scripts/setup.sh), or pass "
    "-DHOSTLOOP_V8_ROOT=<folder with include/node and lib/> from libnode-dev + libnode108.")
endif()

set(_v8_include "${HOSTLOOP_V8_ROOT}/include/node")
set(_v8_version_h "${_v8_include}/v8-version.h")
if(NOT EXISTS "${_v8_version_h}")
  message(FATAL_ERROR "No V8 headers at ${_v8_include} (v8-version.h missing).")
endif()
file(STRINGS "${_v8_version_h}" _v8_major_line REGEX "^#define V8_MAJOR_VERSION [0-9]+")
string(REGEX REPLACE "^#define V8_MAJOR_VERSION ([0-9]+).*" "\\1" HOSTLOOP_V8_MAJOR "${_v8_major_line}")
if(NOT HOSTLOOP_V8_MAJOR STREQUAL "10")
  message(FATAL_ERROR
    "${_v8_include} holds V8 ${HOSTLOOP_V8_MAJOR} headers; hostloop needs V8 10 (libnode108). "
    "These are probably Node's own headers from the nodejs package, which crash against "
    "libnode.so.108. Point HOSTLOOP_V8_ROOT at libnode-dev's headers (scripts/setup.sh fetches them).")
endif()

# include/node lacks v8-fast-api-calls.h (host_bindings.h needs it); libnode-dev
# ships V8's complete include folder beside it, the same version (the files
# both have are identical). Searched after include/node.
set(_v8_full_include "${HOSTLOOP_V8_ROOT}/include/nodejs/deps/v8/include")
if(NOT EXISTS "${_v8_full_include}/v8-fast-api-calls.h")
  message(FATAL_ERROR "No ${_v8_full_include}/v8-fast-api-calls.h: libnode-dev's V8 headers are incomplete.")
endif()
file(STRINGS "${_v8_full_include}/v8-version.h" _v8_full_major_line REGEX "^#define V8_MAJOR_VERSION [0-9]+")
if(NOT _v8_full_major_line STREQUAL _v8_major_line)
  message(FATAL_ERROR "${_v8_full_include} and ${_v8_include} hold different V8 versions.")
endif()

find_library(HOSTLOOP_LIBNODE NAMES libnode.so.108
  PATHS "${HOSTLOOP_V8_ROOT}/lib/${CMAKE_LIBRARY_ARCHITECTURE}" "${HOSTLOOP_V8_ROOT}/lib"
  NO_DEFAULT_PATH REQUIRED)
get_filename_component(HOSTLOOP_LIBNODE_DIR "${HOSTLOOP_LIBNODE}" DIRECTORY)
message(STATUS "V8 ${HOSTLOOP_V8_MAJOR} headers: ${_v8_include}; library: ${HOSTLOOP_LIBNODE}")

add_library(hostloop_v8_import SHARED IMPORTED GLOBAL)
set_target_properties(hostloop_v8_import PROPERTIES
  IMPORTED_LOCATION "${HOSTLOOP_LIBNODE}"
  IMPORTED_NO_SONAME FALSE)
# SYSTEM keeps V8's own warnings out of our build. libnode's V8 has neither
# pointer compression nor the sandbox, so neither macro may be defined.
target_include_directories(hostloop_v8_import SYSTEM INTERFACE "${_v8_include}" "${_v8_full_include}")
target_compile_definitions(hostloop_v8_import INTERFACE V8_DEPRECATION_WARNINGS=0)
add_library(hostloop::v8 ALIAS hostloop_v8_import)

# Binaries link against libnode.so.108 as found, and load a copy of it from
# the build tree (build/<kind>/libnode/) in which libnode's references to its
# own symbols are relative relocations: the loader then looks up 7k symbols at
# start instead of 60k, which takes start-up from ~33 to ~17 ms on the dev VM (scripts/prelink_libnode.py says what it changes and why that is safe;
# the libnode_prelink test checks every binary against it). Targets that link
# V8 depend on hostloop_libnode_runtime through hostloop_v8.
set(HOSTLOOP_LIBNODE_RUNTIME_DIR "${CMAKE_BINARY_DIR}/libnode")
set(HOSTLOOP_LIBNODE_RUNTIME "${HOSTLOOP_LIBNODE_RUNTIME_DIR}/libnode.so.108")
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_custom_command(
  OUTPUT "${HOSTLOOP_LIBNODE_RUNTIME}"
  COMMAND "${CMAKE_COMMAND}" -E make_directory "${HOSTLOOP_LIBNODE_RUNTIME_DIR}"
  COMMAND Python3::Interpreter "${PROJECT_SOURCE_DIR}/scripts/prelink_libnode.py"
          "${HOSTLOOP_LIBNODE}" "${HOSTLOOP_LIBNODE_RUNTIME}"
  DEPENDS "${HOSTLOOP_LIBNODE}" "${PROJECT_SOURCE_DIR}/scripts/prelink_libnode.py"
  COMMENT "Writing build-tree libnode.so.108 with relative self-references"
  VERBATIM)
add_custom_target(hostloop_libnode_runtime DEPENDS "${HOSTLOOP_LIBNODE_RUNTIME}")

# Binaries run from the build tree without LD_LIBRARY_PATH.
set(CMAKE_BUILD_RPATH "${HOSTLOOP_LIBNODE_RUNTIME_DIR}")
set(CMAKE_INSTALL_RPATH "${HOSTLOOP_LIBNODE_DIR}")
