# Embeds a text file in the build as `extern const char <symbol>[]`, a raw string literal, so a
# resource such as the HTML report's page can be edited as its own file yet needs nothing at run
# time (the same way Operators.cmake embeds operator.json). The configure step reruns when the file
# changes.
include_guard(GLOBAL)

# A raw string literal ends at its delimiter: a text that contains `)<delimiter>"` would end the
# literal early, so it is refused, naming the file.
function(aclnn_require_no_raw_string_end text delimiter file)
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${file} contains the raw string delimiter )${delimiter}\"")
  endif()
endfunction()

function(aclnn_embed_text file symbol output)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${file})
  file(READ ${file} ACLNN_EMBEDDED_TEXT)
  aclnn_require_no_raw_string_end("${ACLNN_EMBEDDED_TEXT}" aclnn_text ${file})
  file(RELATIVE_PATH ACLNN_EMBEDDED_SOURCE ${CMAKE_SOURCE_DIR} ${file})
  set(ACLNN_EMBEDDED_SYMBOL ${symbol})
  configure_file(${CMAKE_SOURCE_DIR}/cmake/embedded_text.cc.in ${output} @ONLY)
endfunction()
