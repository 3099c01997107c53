# Embeds a text file in the build as `extern const char <symbol>[]`, a raw string literal, so a
# resource such as the HTML report's page can be edited as its own file yet needs nothing at run
# time (the same way Operators.cmake embeds operator.json). The configure step reruns when the file
# changes.
function(aclnn_embed_text file symbol output)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${file})
  file(READ ${file} ACLNN_EMBEDDED_TEXT)
  # The raw string literal ends at its delimiter; a file containing it would end the literal early.
  string(FIND "${ACLNN_EMBEDDED_TEXT}" ")aclnn_text\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${file} contains the raw string delimiter )aclnn_text\"")
  endif()
  file(RELATIVE_PATH ACLNN_EMBEDDED_SOURCE ${CMAKE_SOURCE_DIR} ${file})
  set(ACLNN_EMBEDDED_SYMBOL ${symbol})
  configure_file(${CMAKE_SOURCE_DIR}/cmake/embedded_text.cc.in ${output} @ONLY)
endfunction()
