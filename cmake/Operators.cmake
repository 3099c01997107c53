# Discovers the operator folders (kernels/<folder>/operator.json) and produces:
#   ACLNN_OPERATOR_SOURCES  validation, reference and kernels of every operator, plus the
#                           embedded descriptions and the generated registry
#   ACLNN_OPERATOR_ENTRIES  the aclnn C entry points (entry.cc), linked into the providers only
#   ACLNN_OPERATOR_TESTS    every kernels/<folder>/*_test.cc
# Each folder defines `extern const OperatorDef kOperator_<folder>` in its operator.cc. Files that
# belong to other layers (ACLNN_OPERATOR_PART_FILES) are compiled there (cmake/OperatorParts.cmake).
set(ACLNN_OPERATOR_PART_FILES minimum_traffic.cc cann_import.cc torch_peer.cc onednn_peer.cc)
function(aclnn_collect_operators)
  file(GLOB descriptions CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/kernels/*/operator.json)
  list(SORT descriptions)
  set(generated_dir ${CMAKE_BINARY_DIR}/generated)
  set(sources "")
  set(entries "")
  set(tests "")
  set(declarations "")
  set(registrations "")
  foreach(description ${descriptions})
    get_filename_component(folder_path ${description} DIRECTORY)
    get_filename_component(folder ${folder_path} NAME)
    file(GLOB folder_sources CONFIGURE_DEPENDS ${folder_path}/*.cc)
    foreach(source ${folder_sources})
      get_filename_component(name ${source} NAME)
      if(name IN_LIST ACLNN_OPERATOR_PART_FILES)
        continue()
      elseif(name STREQUAL "entry.cc")
        list(APPEND entries ${source})
      elseif(name MATCHES "_test\\.cc$")
        list(APPEND tests ${source})
      else()
        list(APPEND sources ${source})
      endif()
    endforeach()
    # Embed the description as a raw string literal; the configure step reruns when it changes.
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${description})
    file(READ ${description} ACLNN_DESCRIPTION)
    set(ACLNN_FOLDER ${folder})
    configure_file(${CMAKE_SOURCE_DIR}/cmake/description.cc.in
                   ${generated_dir}/description_${folder}.cc @ONLY)
    list(APPEND sources ${generated_dir}/description_${folder}.cc)
    string(APPEND declarations "extern const OperatorDef kOperator_${folder};\n")
    string(APPEND registrations "    {&kOperator_${folder}, \"${folder}\"},\n")
  endforeach()
  set(ACLNN_DECLARATIONS ${declarations})
  set(ACLNN_REGISTRATIONS ${registrations})
  configure_file(${CMAKE_SOURCE_DIR}/cmake/operator_registry.cc.in
                 ${generated_dir}/operator_registry.cc @ONLY)
  list(APPEND sources ${generated_dir}/operator_registry.cc)
  set(ACLNN_OPERATOR_SOURCES ${sources} PARENT_SCOPE)
  set(ACLNN_OPERATOR_ENTRIES ${entries} PARENT_SCOPE)
  set(ACLNN_OPERATOR_TESTS ${tests} PARENT_SCOPE)
endfunction()
