using System.Runtime.CompilerServices;
using JsonStringify.NativeAot;

// Replays the V8 golden data through the library compiled ahead of time, once on the fast path and once on the public
// reader: the checks of V8GoldenTests and V8FuzzTests, and what the fast path keeps where no code can be compiled at
// run time. Prints the first mismatches and a last line "native AOT: N passed, N failed"; exits 1 on any failure.
if (RuntimeFeature.IsDynamicCodeSupported)
{
    Console.Error.WriteLine("This program checks the library as NativeAOT compiles it: publish it (see .ci/run) and run the native program.");
    return 2;
}

var tally = new Tally();
Golden golden = Golden.Load(Path.Combine(AppContext.BaseDirectory, "testdata", "v8-golden.json"));
foreach (bool fastPath in (ReadOnlySpan<bool>)[true, false])
{
    var replay = new Replay(golden, fastPath, tally);
    replay.CheckGoldenFile();
    replay.CheckReader();
    replay.CheckCases();
    replay.CheckFuzz();
    replay.CheckNumbers();
    replay.CheckCorpus();
}

Console.WriteLine($"native AOT: {tally.Passed} passed, {tally.Failed} failed");
return tally.Failed == 0 ? 0 : 1;
