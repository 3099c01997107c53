# cmake -DSOURCE_DIR=... -DWORK_DIR=... -P embedded_description_test.cmake
# An operator.json that holds the raw string delimiter of its embedding must be refused, naming the
# file (cmake/Operators.cmake, aclnn_embed_description); one without it must embed. Prints PASS.
include(${SOURCE_DIR}/cmake/Operators.cmake)
file(MAKE_DIRECTORY ${WORK_DIR})
set(good ${WORK_DIR}/good.json)
file(WRITE ${good} "{\"name\": \"LogitGrad\", \"summary\": \"x\"}")
aclnn_embed_description(${good} logit_grad ${WORK_DIR}/good.cc name)
if(NOT name STREQUAL "LogitGrad")
  message(FATAL_ERROR "FAIL: the name read was '${name}'")
endif()
file(READ ${WORK_DIR}/good.cc embedded)
string(FIND "${embedded}" "R\"aclnn_json({\"name\": \"LogitGrad\"" found)
if(found EQUAL -1)
  message(FATAL_ERROR "FAIL: the description is not embedded: ${embedded}")
endif()
set(bad ${WORK_DIR}/bad.json)
# Valid JSON: a string value that ends in ")aclnn_json" closes with the delimiter's quote.
file(WRITE ${bad} "{\"name\": \"LogitGrad\", \"summary\": \"(see kernels/x)aclnn_json\"}")
message(STATUS "PASS so far; next, the refusal")
aclnn_embed_description(${bad} logit_grad ${WORK_DIR}/bad.cc name)
message(FATAL_ERROR "FAIL: a description holding the delimiter was embedded")
