# The per-operator pieces that live in the operator's folder but belong to a layer above the
# catalogue, in the folder's bench/ and import/ (docs/ARCHITECTURE.md, "The operator folder"):
# each is compiled into the layer that uses it and reached through a table generated here, so
# that adding an operator adds files to its folder and edits no list.
#
#   bench/minimum_traffic.cc  the benchmarks' minimum bytes (src/bench)  -> aclnn_bench_core
#   bench/torch_peer.cc       aclnn_bench's PyTorch peer (bench/)        -> aclnn_bench (bench/CMakeLists.txt)
#   bench/onednn_peer.cc      aclnn_bench's oneDNN peer (bench/)         -> aclnn_bench (bench/CMakeLists.txt)
#   import/cann_import.cc     CANN case-file mappings (src/import)      -> aclnn_import
#   aclnn_<folder>.h          the C prototype; include/aclnnop/ holds a copy (target aclnn_sync_headers)
#   oracle.py                 the golden oracle, found by tools/gen_golden.py (no build step)

# aclnn_operator_part(<path> <out sources var> HEADER h NAMESPACE ns TYPE t FUNCTION f
#                     DECLARATION d ROW r): the folders that have kernels/<folder>/<path>, their
# sources, and a generated table `const t& f()` with one DECLARATION (no semicolon: CMake would
# split the argument there) and one ROW per folder
# (FOLDER in them stands for the folder's name).
function(aclnn_operator_part file_name sources_var)
  cmake_parse_arguments(PART "" "HEADER;NAMESPACE;TYPE;FUNCTION;DECLARATION;ROW" "" ${ARGN})
  file(GLOB parts CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/kernels/*/${file_name})
  list(SORT parts)
  set(ACLNN_PART_DECLARATIONS "")
  set(ACLNN_PART_ROWS "")
  foreach(part ${parts})
    string(REGEX REPLACE "^${CMAKE_SOURCE_DIR}/kernels/([^/]+)/.*" "\\1" folder ${part})
    string(REPLACE "FOLDER" ${folder} declaration "${PART_DECLARATION}")
    string(REPLACE "FOLDER" ${folder} row "${PART_ROW}")
    string(APPEND ACLNN_PART_DECLARATIONS "${declaration};\n")
    string(APPEND ACLNN_PART_ROWS "    ${row}\n")
  endforeach()
  set(ACLNN_PART_FILE ${file_name})
  set(ACLNN_PART_HEADER ${PART_HEADER})
  set(ACLNN_PART_NAMESPACE ${PART_NAMESPACE})
  set(ACLNN_PART_TYPE ${PART_TYPE})
  set(ACLNN_PART_FUNCTION ${PART_FUNCTION})
  get_filename_component(stem ${file_name} NAME_WE)
  set(table ${CMAKE_BINARY_DIR}/generated/operator_parts_${stem}.cc)
  configure_file(${CMAKE_SOURCE_DIR}/cmake/operator_part_table.cc.in ${table} @ONLY)
  set(${sources_var} ${parts} ${table} PARENT_SCOPE)
endfunction()

aclnn_operator_part(bench/minimum_traffic.cc traffic_sources
  HEADER bench/minimum_traffic.h NAMESPACE aclnn_check
  TYPE "std::map<std::string, TrafficFormula, std::less<>>" FUNCTION TrafficFormulas
  DECLARATION "uint64_t MinimumTrafficBytes_FOLDER(const Operator& op, const OpArgs& args)"
  ROW "{\"FOLDER\", &MinimumTrafficBytes_FOLDER},")
aclnn_operator_part(import/cann_import.cc import_sources
  HEADER import/case_mapping_builder.h NAMESPACE aclnn_check
  TYPE "std::vector<std::span<const CannOperatorName>>" FUNCTION CannImportNameLists
  DECLARATION "std::span<const CannOperatorName> CannImportNames_FOLDER()"
  ROW "CannImportNames_FOLDER(),")
target_sources(aclnn_bench_core PRIVATE ${traffic_sources})
target_sources(aclnn_import PRIVATE ${import_sources})

# The prototype headers: kernels/<folder>/aclnn_<folder>.h is the one to edit; include/aclnnop/
# holds a copy for programs written as CANN's samples (-I include -I include/aclnnop) and for the
# install. tests/kernels/operator_headers_test.cc fails while a copy differs.
file(GLOB operator_headers CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/kernels/*/aclnn_*.h)
add_custom_target(aclnn_sync_headers
  COMMAND ${CMAKE_COMMAND} -E copy_if_different ${operator_headers} ${CMAKE_SOURCE_DIR}/include/aclnnop/
  COMMENT "Copying kernels/*/aclnn_*.h to include/aclnnop/"
  VERBATIM)
