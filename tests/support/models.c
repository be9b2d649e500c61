/* assimp's test models (models.h). */
#include "models.h"

#include <stdio.h>

bool test_models_found(const char* test, const char* dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/invalid/readme.txt", dir);
    FILE* probe = fopen(path, "rb");
    if (probe == NULL) {
        fprintf(stderr,
                "%s: assimp's test models are not in %s.\n"
                "Install them (as root): apt-get install -y assimp-testmodels\n"
                "or point CMake at them: -DSEPAX_ASSIMP_MODELS_DIR=<folder holding OBJ/ STL/ PLY/ glTF2/ invalid/>\n",
                test, dir);
        return false;
    }
    fclose(probe);
    return true;
}
