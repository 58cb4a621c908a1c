# gridfuzz_add_plugin(NAME [SOURCES] src... [LIBRARIES lib...])
# Builds lib<NAME>.so, a MODULE that `gridfuzz --plugin` loads: CUDA enabled, C++20, the gridfuzz
# adapter headers (gridfuzz::api), and its own static CUDA runtime (which registers its kernels).
# It links nothing from gridfuzz: its references to the adapter API resolve to the gridfuzz
# executable's exported symbols at load time, so a plugin can never carry a second copy of the
# registry or the device layer. Only the GRIDFUZZ_PLUGIN entry points are exported from it.
# Shipped in the gridfuzz CMake package and used in-tree for the self-test plugin.
function(gridfuzz_add_plugin name)
  cmake_parse_arguments(A "" "" "SOURCES;LIBRARIES" ${ARGN})
  set(sources ${A_SOURCES} ${A_UNPARSED_ARGUMENTS})
  if(NOT sources)
    message(FATAL_ERROR "gridfuzz_add_plugin(${name}): no SOURCES")
  endif()
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CUDA" IN_LIST languages)
    message(FATAL_ERROR "gridfuzz_add_plugin(${name}): CUDA is not enabled; use project(... LANGUAGES CXX CUDA)")
  endif()
  add_library(${name} MODULE ${sources})
  target_link_libraries(${name} PRIVATE gridfuzz::api CUDA::cudart_static ${A_LIBRARIES})
  set_target_properties(${name} PROPERTIES
    CXX_STANDARD 20 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF
    CUDA_STANDARD 20 CUDA_STANDARD_REQUIRED ON CUDA_EXTENSIONS OFF
    CUDA_RUNTIME_LIBRARY Static
    POSITION_INDEPENDENT_CODE ON
    # Internal symbols stay internal: the host's copies of inline functions never replace the
    # plugin's (and the other way round), and two plugins cannot collide.
    CXX_VISIBILITY_PRESET hidden CUDA_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  # Static libraries linked into the plugin stay private to it as well.
  target_link_options(${name} PRIVATE "LINKER:--exclude-libs,ALL")
endfunction()
