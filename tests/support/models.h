/* assimp's test models, which the mesh-file tests read: they come from a Debian package, not from
   this repository. */
#ifndef TEST_SUPPORT_MODELS_H
#define TEST_SUPPORT_MODELS_H

#include <stdbool.h>

/* Are the models in `dir`? When not, says on stderr, naming `test`, how to install them or point
   CMake at them, so that the test fails plainly rather than on its first model. */
bool test_models_found(const char* test, const char* dir);

#endif
