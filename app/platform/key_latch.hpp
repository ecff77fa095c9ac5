// Taps shorter than a frame. ImGui 1.86 reads which keys are down as a frame starts, so a key
// pressed and released between two frames, as a presenter's clicker sends PageDown (about 5 ms), is
// never seen. The latch holds such a tap down for exactly one frame, then lets it go.
#pragma once

#include <algorithm>
#include <vector>

namespace sortscope::app {

class KeyLatch {
 public:
  // Every key event, in the order the window system gives them.
  void on_key(int key, bool down) {
    if (down) {
      if (std::find(down_.begin(), down_.end(), key) == down_.end()) down_.push_back(key);
      if (std::find(pressed_.begin(), pressed_.end(), key) == pressed_.end()) pressed_.push_back(key);
    } else {
      std::erase(down_, key);
    }
  }
  // As a frame starts, after the events are in: the keys pressed since the last frame and already
  // released, to hold down for this frame. Keys still down are seen as they are.
  std::vector<int> take_taps() {
    std::vector<int> taps;
    for (int key : pressed_)
      if (std::find(down_.begin(), down_.end(), key) == down_.end()) taps.push_back(key);
    pressed_.clear();
    return taps;
  }
  bool down(int key) const { return std::find(down_.begin(), down_.end(), key) != down_.end(); }

 private:
  std::vector<int> down_;     // keys down now
  std::vector<int> pressed_;  // keys pressed since the last frame started
};

}  // namespace sortscope::app
