# Discovers the operator folders (kernels/<folder>/operator.json) and routes their files by
# where they lie in the folder (docs/ARCHITECTURE.md, "The operator folder"):
#   ACLNN_CATALOGUE_SOURCES    kernels/<folder>/contract/*.cc, what the harness needs of the
#                              operator (description, validation, float64 reference, call rules,
#                              planning), with the embedded operator.json and the generated registry
#   ACLNN_CPU_KERNEL_SOURCES   kernels/<folder>/*.cc, the cpu provider's bundled kernels, and their
#                              generated table; linked into the cpu provider and the tests only
#   ACLNN_OPERATOR_ENTRIES     the aclnn C entry points, generated from CANN's prototype in
#                              kernels/<folder>/aclnn_<folder>.h; linked into the providers only
#   ACLNN_OPERATOR_TESTS       every tests/kernels/<folder>/*_test.cc
#   ACLNN_OPERATOR_FOLDERS     the folder names, sorted
# kernels/<folder>/cuda_kernel.cu goes to the cuda provider (aclnn_collect_cuda_kernels), and
# kernels/<folder>/bench/*.cc and import/*.cc to the layers above that use them
# (cmake/OperatorParts.cmake). Each folder defines `extern const OperatorDef kOperator_<folder>`
# in contract/operator.cc and the functions of kernels/catalogue/operator_functions.h in the
# namespace aclnn_check::<folder>.
include(${CMAKE_CURRENT_LIST_DIR}/EmbedText.cmake)

# The GetWorkspaceSize prototype of aclnn<name> in <header>: the parameter list as written and
# the parameter names before workspaceSize and executor.
function(aclnn_read_prototype header name out_parameters out_names)
  file(READ ${header} text)
  string(REGEX MATCH "aclnn${name}GetWorkspaceSize\\(([^)]*)\\)" found "${text}")
  if(NOT found)
    message(FATAL_ERROR "${header}: expected the prototype aclnn${name}GetWorkspaceSize(...) "
                        "(the operator name comes from operator.json \"name\")")
  endif()
  string(REGEX REPLACE "[ \t\r\n]+" " " parameters "${CMAKE_MATCH_1}")
  string(STRIP "${parameters}" parameters)
  string(REPLACE "," ";" pieces "${parameters}")
  set(names "")
  foreach(piece ${pieces})
    string(REGEX MATCH "[A-Za-z_][A-Za-z0-9_]*$" parameter "${piece}")
    list(APPEND names ${parameter})
  endforeach()
  list(LENGTH names count)
  if(count LESS 2)
    message(FATAL_ERROR "${header}: aclnn${name}GetWorkspaceSize must end with "
                        "(uint64_t* workspaceSize, aclOpExecutor** executor)")
  endif()
  math(EXPR last "${count} - 1")
  math(EXPR before_last "${count} - 2")
  list(GET pieces ${before_last} workspace_piece)
  list(GET pieces ${last} executor_piece)
  if(NOT workspace_piece MATCHES "uint64_t *\\* *[A-Za-z_]+ *$" OR
     NOT executor_piece MATCHES "aclOpExecutor *\\*\\* *[A-Za-z_]+ *$")
    message(FATAL_ERROR "${header}: aclnn${name}GetWorkspaceSize must end with "
                        "(uint64_t* workspaceSize, aclOpExecutor** executor), found "
                        "(${workspace_piece}, ${executor_piece})")
  endif()
  list(GET names ${before_last} workspace_name)
  list(GET names ${last} executor_name)
  list(REMOVE_AT names ${before_last} ${last})
  list(JOIN names ", " call_arguments)
  set(${out_parameters} "${parameters}" PARENT_SCOPE)
  set(${out_names} "${call_arguments}, ${workspace_name}, ${executor_name}" PARENT_SCOPE)
endfunction()

# Embeds kernels/<folder>/operator.json as a raw string literal (cmake/description.cc.in) in
# `output` and sets `out_name` to its "name"; the configure step reruns when it changes.
function(aclnn_embed_description description folder output out_name)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${description})
  file(READ ${description} ACLNN_DESCRIPTION)
  aclnn_require_no_raw_string_end("${ACLNN_DESCRIPTION}" aclnn_json ${description})
  string(JSON name ERROR_VARIABLE json_error GET "${ACLNN_DESCRIPTION}" name)
  if(json_error)
    message(FATAL_ERROR "${description}: expected a string \"name\" (${json_error})")
  endif()
  set(ACLNN_FOLDER ${folder})
  configure_file(${CMAKE_CURRENT_FUNCTION_LIST_DIR}/description.cc.in ${output} @ONLY)
  set(${out_name} ${name} PARENT_SCOPE)
endfunction()

function(aclnn_collect_operators)
  file(GLOB descriptions CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/kernels/*/operator.json)
  list(SORT descriptions)
  set(generated_dir ${CMAKE_BINARY_DIR}/generated)
  set(sources "")
  set(kernels "")
  set(entries "")
  set(tests "")
  set(folders "")
  set(declarations "")
  set(registrations "")
  set(kernel_includes "")
  set(kernel_rows "")
  foreach(description ${descriptions})
    get_filename_component(folder_path ${description} DIRECTORY)
    get_filename_component(folder ${folder_path} NAME)
    list(APPEND folders ${folder})
    file(GLOB contract_sources CONFIGURE_DEPENDS ${folder_path}/contract/*.cc)
    if(NOT contract_sources)
      message(FATAL_ERROR "kernels/${folder}: expected the operator's contract in "
                          "kernels/${folder}/contract/*.cc (operator.cc, validate.cc, reference.cc, plan.cc)")
    endif()
    file(GLOB kernel_sources CONFIGURE_DEPENDS ${folder_path}/*.cc)
    file(GLOB test_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/kernels/${folder}/*_test.cc)
    list(APPEND sources ${contract_sources})
    list(APPEND kernels ${kernel_sources})
    list(APPEND tests ${test_sources})
    aclnn_embed_description(${description} ${folder} ${generated_dir}/description_${folder}.cc
                            ACLNN_NAME)
    list(APPEND sources ${generated_dir}/description_${folder}.cc)
    string(APPEND declarations "extern const OperatorDef kOperator_${folder};\n")
    string(APPEND registrations "    {&kOperator_${folder}, \"${folder}\"},\n")
    string(APPEND kernel_includes "#include \"${folder}/${folder}.h\"\n")
    string(APPEND kernel_rows
           "    {\"${folder}\", ${folder}::SimdWorkspaceBytes, ${folder}::SimdCompute},\n")

    # The C entry points, from CANN's own prototype (the folder's copy; include/aclnnop/ holds
    # the same file for programs written against CANN's layout).
    set(header ${folder_path}/aclnn_${folder}.h)
    if(NOT EXISTS ${header})
      message(FATAL_ERROR "kernels/${folder}: expected CANN's prototype header "
                          "kernels/${folder}/aclnn_${folder}.h")
    endif()
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${header})
    aclnn_read_prototype(${header} ${ACLNN_NAME} ACLNN_PARAMETERS ACLNN_ARGUMENTS)
    set(ACLNN_FOLDER ${folder})
    configure_file(${CMAKE_SOURCE_DIR}/cmake/operator_entry.cc.in
                   ${generated_dir}/entry_${folder}.cc @ONLY)
    list(APPEND entries ${generated_dir}/entry_${folder}.cc)
  endforeach()
  set(ACLNN_DECLARATIONS ${declarations})
  set(ACLNN_REGISTRATIONS ${registrations})
  configure_file(${CMAKE_SOURCE_DIR}/cmake/operator_registry.cc.in
                 ${generated_dir}/operator_registry.cc @ONLY)
  list(APPEND sources ${generated_dir}/operator_registry.cc)
  set(ACLNN_KERNEL_INCLUDES ${kernel_includes})
  set(ACLNN_KERNEL_ROWS ${kernel_rows})
  configure_file(${CMAKE_SOURCE_DIR}/cmake/cpu_kernel_table.cc.in
                 ${generated_dir}/cpu_kernel_table.cc @ONLY)
  list(APPEND kernels ${generated_dir}/cpu_kernel_table.cc)
  set(ACLNN_CATALOGUE_SOURCES ${sources} PARENT_SCOPE)
  set(ACLNN_CPU_KERNEL_SOURCES ${kernels} PARENT_SCOPE)
  set(ACLNN_OPERATOR_ENTRIES ${entries} PARENT_SCOPE)
  set(ACLNN_OPERATOR_TESTS ${tests} PARENT_SCOPE)
  set(ACLNN_OPERATOR_FOLDERS ${folders} PARENT_SCOPE)
endfunction()

# The cuda provider's kernel table: every folder with a cuda_kernel.cu. Sets ACLNN_CUDA_KERNEL_SOURCES.
function(aclnn_collect_cuda_kernels)
  set(generated_dir ${CMAKE_BINARY_DIR}/generated)
  set(sources "")
  set(kernel_includes "")
  set(kernel_rows "")
  foreach(folder ${ACLNN_OPERATOR_FOLDERS})
    set(source ${CMAKE_SOURCE_DIR}/kernels/${folder}/cuda_kernel.cu)
    if(NOT EXISTS ${source})
      continue()
    endif()
    list(APPEND sources ${source})
    string(APPEND kernel_includes "#include \"${folder}/${folder}.h\"\n")
    string(APPEND kernel_rows
           "    {\"${folder}\", ${folder}::CudaWorkspaceBytes, ${folder}::CudaCompute},\n")
  endforeach()
  set(ACLNN_KERNEL_INCLUDES ${kernel_includes})
  set(ACLNN_KERNEL_ROWS ${kernel_rows})
  configure_file(${CMAKE_SOURCE_DIR}/cmake/cuda_kernel_table.cc.in
                 ${generated_dir}/cuda_kernel_table.cc @ONLY)
  list(APPEND sources ${generated_dir}/cuda_kernel_table.cc)
  set(ACLNN_CUDA_KERNEL_SOURCES ${sources} PARENT_SCOPE)
endfunction()
