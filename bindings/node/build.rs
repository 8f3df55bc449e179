//! Sets the linker arguments a Node.js addon needs on each platform.

fn main() {
    napi_build::setup();
}
