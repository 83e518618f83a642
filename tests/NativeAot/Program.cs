using System.Runtime.CompilerServices;
using JsonStringify.NativeAot;
using JsonStringify.Tests;

// Replays the V8 golden data through the library as a published program has it, once on the fast path and once on the
// public reader: the checks of V8GoldenTests and V8FuzzTests, and which parts of the fast path are off. .ci/run
// publishes it twice: with NativeAOT, where no code can be compiled at run time, and trimmed under the JIT. Prints the
// first mismatches and a last line "without code compiled at run time: N passed, N failed" ("with" where it is);
// exits 1 on any failure.
var tally = new Tally();
GoldenData golden = GoldenData.Load(GoldenData.FilePath);
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

Console.WriteLine($"{(RuntimeFeature.IsDynamicCodeCompiled ? "with" : "without")} code compiled at run time: {tally.Passed} passed, {tally.Failed} failed");
return tally.Failed == 0 ? 0 : 1;
