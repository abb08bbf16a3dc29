-- A person who runs out of time in a multi-seat game keeps their seat (for results and
-- ratings) while the AI plays it: stand_in holds the AI level standing in, NULL otherwise.
ALTER TABLE seats ADD COLUMN stand_in TEXT;
