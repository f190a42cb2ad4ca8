# Runs the profile-guided build's trainer (cmake/pgo.cmake) on fresh counts: the instrumented objects
# in DIR may have changed since an earlier run, whose counts would no longer match them.
file(GLOB_RECURSE old ${DIR}/*.gcda)
if(old)
  file(REMOVE ${old})
endif()
execute_process(COMMAND ${TRAINER} ${CORPUS} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "the profile-guided build's training run failed (${result})")
endif()
file(TOUCH ${STAMP})
