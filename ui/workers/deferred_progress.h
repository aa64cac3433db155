#pragma once

class QProgressBar;

// Sets a progress bar's maximum and value without painting now. QProgressBar::setValue repaints
// at once when its text shows the value (%v), and an immediate repaint paints every pending
// change of the whole window in the caller's turn: the triage view's first paint (20-25 ms)
// landed inside the first progress update. With updates off the bar only schedules its paint,
// which the next turn of the event loop does with the rest.
void setProgressDeferred(QProgressBar& bar, int value, int maximum);
