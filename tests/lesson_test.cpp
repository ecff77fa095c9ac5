// Lesson files: what a lecturer writes is read into steps, and every broken rule is one line that
// names the file, the line and the rule.
#include <gtest/gtest.h>

#include <string>

#include "platform/key_latch.hpp"
#include "session/lesson.hpp"
#include "session/lesson_captions.hpp"
#include "ui/view_state.hpp"

namespace sortscope::app {
namespace {

constexpr const char* kGood = R"(# One bit at a time
chapter: PMPP 13.3
paper: Hwu, Kirk & El Hajj 2022, section 13.3
claim: An LSD pass must be stable.
kind: claim

What the lesson is about.

## The input
run: --algorithm pmpp-radix-naive --backend cpu --keys-list '170, 45, 75, 90'
show: array, explain

Four keys, {n} of them.

## Predict
view: --stage 1 --phase 3
ask: Where does 45 go?
- [ ] position 0
- [x] position 3
because: Its bit is 1, and three keys have a 0.
The caption after the reveal,
on two lines.

## Sweep
sweep: n=2^10..2^14
measure: ms
paper: a GTX 285: 1024=0.5, 2^14=1.5
)";

TEST(Lesson, ReadsHeaderStepsQuestionsAndExperiments) {
  Lesson l;
  ASSERT_TRUE(parse_lesson(kGood, "bits.md", &l).ok()) << parse_lesson(kGood, "bits.md", &l).message();
  EXPECT_EQ(l.name, "bits");
  EXPECT_EQ(l.title, "One bit at a time");
  EXPECT_EQ(l.chapter, "PMPP 13.3");
  EXPECT_EQ(l.kind, "claim");
  EXPECT_EQ(l.about, "What the lesson is about.");
  ASSERT_EQ(l.steps.size(), 3u);
  const LessonStep& first = l.steps[0];
  EXPECT_EQ(first.title, "The input");
  ASSERT_EQ(first.run.size(), 6u);
  EXPECT_EQ(first.run.back(), "170, 45, 75, 90") << "quotes keep a list with spaces as one word";
  EXPECT_EQ(first.show, (std::vector<std::string>{"array", "explain"}));
  EXPECT_EQ(first.caption, "Four keys, {n} of them.");
  const LessonStep& second = l.steps[1];
  EXPECT_TRUE(second.run.empty());
  EXPECT_EQ(second.view, (std::vector<std::string>{"--stage", "1", "--phase", "3"}));
  ASSERT_TRUE(second.question);
  EXPECT_EQ(second.question->choices.size(), 2u);
  EXPECT_EQ(second.question->answer, 1);
  EXPECT_EQ(second.question->because, "Its bit is 1, and three keys have a 0.");
  EXPECT_EQ(second.caption, "The caption after the reveal, on two lines.");
  ASSERT_TRUE(l.steps[2].experiment);
  EXPECT_EQ(l.steps[2].experiment->sweep, "n=2^10..2^14");
  EXPECT_EQ(l.steps[2].experiment->measure, "ms");
  EXPECT_EQ(l.steps[2].experiment->paper_label, "a GTX 285");
  ASSERT_EQ(l.steps[2].experiment->paper.size(), 2u);
  EXPECT_EQ(l.steps[2].experiment->paper[1].first, 16384.0);
}

// Each broken rule: the message is one line, names the file and the line, and says the rule.
TEST(Lesson, ABrokenLessonIsOneLineWithItsFileLineAndRule) {
  struct Case {
    const char* text;
    int line;
    const char* rule;
  };
  const Case cases[] = {
      {"", 0, "the file is empty"},
      {"no title\n", 1, "starts with its title"},
      {"# T\nkind: lecture\n", 2, "kind: is 'claim' or 'tour'"},
      {"# T\nwhen: today\n", 2, "unknown header 'when:'"},
      {"# T\n", 1, "at least one step"},
      {"# T\n## S\nshow: array\n", 2, "needs a 'run:' line"},
      {"# T\n## S\nrun: --n 8\nfly: high\n", 4, "unknown line 'fly:'"},
      {"# T\n## S\nrun: --keys-list '1, 2\n", 3, "quote is not closed"},
      {"# T\n## S\nrun: --n 8\n- [x] yes\n", 4, "belongs under an 'ask:'"},
      {"# T\n## S\nrun: --n 8\nask: Why?\n- [ ] a\n- [ ] b\n", 2, "marks no answer"},
      {"# T\n## S\nrun: --n 8\nask: Why?\n- [x] a\n", 2, "two choices or more"},
      {"# T\n## S\nrun: --n 8\nask: Why?\n- [x] a\n- [x] b\n", 6, "one answer"},
      {"# T\n## S\nrun: --n 8\nshow: a, b, c, d\n", 4, "one to three panels"},
      {"# T\n## S\nrun: --n 8\nmeasure: ms\n", 4, "put 'sweep:' first"},
      {"# T\n## S\nrun: --n 8\nsweep: n=2^4..2^8\npaper: Fig 3: 16=many\n", 5, "is not x=y"},
      {"# T\n## S\nrun: --n 8\nThe speed is {warp_speed}.\n", 2, "{warp_speed}"},
  };
  for (const Case& c : cases) {
    Lesson l;
    const Status s = parse_lesson(c.text, "lessons/broken.md", &l);
    ASSERT_FALSE(s.ok()) << c.text;
    const std::string expected_start = "lessons/broken.md:" + std::to_string(c.line) + ": ";
    EXPECT_EQ(s.message().rfind(expected_start, 0), 0u) << s.message();
    EXPECT_NE(s.message().find(c.rule), std::string::npos) << s.message();
    EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
  }
}

TEST(Lesson, CaptionFieldsAreKnownByName) {
  std::string unknown;
  EXPECT_EQ(caption_field_names("{keys_per_s} at {n} keys", &unknown), (std::vector<std::string>{"keys_per_s", "n"}));
  EXPECT_TRUE(unknown.empty());
  caption_field_names("{nope}", &unknown);
  EXPECT_EQ(unknown, "nope");
}

// A field the run cannot give reads "..." on the screen, and is named, so that a lesson checked
// offscreen (--check-layout) reports it.
TEST(Lesson, ACaptionNamesTheFieldsItCouldNotFill) {
  std::vector<std::string> unfilled;
  EXPECT_EQ(fill_caption("{n} keys in {ms}, MSD pass {msd_pass_ms}", {{"n", "1,024"}, {"ms", "2.0 ms"}}, &unfilled),
            "1,024 keys in 2.0 ms, MSD pass ...");
  EXPECT_EQ(unfilled, std::vector<std::string>{"msd_pass_ms"});
}

// A presenter's clicker taps PageDown for about 5 ms: press and release both land between two
// frames. The latch holds the tap down for the next frame alone; a key held down is left as it is.
TEST(KeyLatch, ATapShorterThanAFrameIsHeldForOneFrame) {
  constexpr int kPageDown = 267;
  KeyLatch latch;
  latch.on_key(kPageDown, true);
  latch.on_key(kPageDown, false);
  EXPECT_EQ(latch.take_taps(), std::vector<int>{kPageDown}) << "the tap is seen in the frame after it";
  EXPECT_TRUE(latch.take_taps().empty()) << "and only in that frame";
  latch.on_key(kPageDown, true);
  EXPECT_TRUE(latch.take_taps().empty()) << "a key still down is read as down, not latched";
  EXPECT_TRUE(latch.down(kPageDown));
  latch.on_key(kPageDown, false);
  EXPECT_TRUE(latch.take_taps().empty()) << "its release is no new press";
  latch.on_key(kPageDown, true);
  latch.on_key(kPageDown, false);
  latch.on_key(kPageDown, true);
  latch.on_key(kPageDown, false);
  EXPECT_EQ(latch.take_taps(), std::vector<int>{kPageDown}) << "two taps in one frame are one step";
}

// Next shows an open question's answer before it moves on; Back goes back; a choice reveals.
TEST(LessonView, NextRevealsAQuestionFirstThenMovesOn) {
  auto loaded = std::make_shared<LoadedLesson>();
  ASSERT_TRUE(parse_lesson(kGood, "bits.md", &loaded->lesson).ok());
  loaded->plans.resize(loaded->lesson.steps.size());
  ui::LessonView view(loaded);
  EXPECT_FALSE(view.question_open());
  view.next();
  EXPECT_EQ(view.step, 1);
  EXPECT_TRUE(view.question_open());
  view.next();
  EXPECT_EQ(view.step, 1) << "the first Next shows the answer";
  EXPECT_FALSE(view.question_open());
  view.next();
  EXPECT_EQ(view.step, 2);
  view.next();
  EXPECT_EQ(view.step, 2) << "the last step stays";
  view.back();
  view.back();
  EXPECT_EQ(view.step, 0);
  view.back();
  EXPECT_EQ(view.step, 0);
  ui::LessonView fresh(loaded);
  fresh.next();
  fresh.choose(0);
  EXPECT_FALSE(fresh.question_open());
  EXPECT_EQ(fresh.chosen[1], 0);
}

}  // namespace
}  // namespace sortscope::app
