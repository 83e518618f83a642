using System.Diagnostics;
using System.Runtime.CompilerServices;
using Jint.Native;
using Jint.Native.Object;
using Jint.Runtime.Interop;

namespace JsonStringify.Internals;

/// <summary>The spec's stack of open containers: cycles, and the depth limit.</summary>
internal sealed partial class Walker<TOutput>
{
    // The spec's stack of open containers: one frame per container, with where the walk is in it. The walk loops
    // over these instead of recursing, so nesting is bounded by MaxDepth and memory, never by the thread's stack.
    private Frame[] _frames = new Frame[16];

    private HashSet<ObjectInstance>? _deepStack;
    private int _depth;

    // Frames are not cleared when their container closes: each kind of frame sets what it reads when it starts, and
    // the frames used by a call are cleared when it ends, so that a pooled walker pins nothing.
    private int _framesUsed;

    private int _maxDepth;

    // A reference stored into an array that has survived a collection, to an object younger than the array, takes the
    // write barrier's long path (the generations of both, then the card table, whose card the next collection scans);
    // stored into an array still in generation 0, the short one. The frames take a few such stores per container and
    // the table stack up to two per property of a table, while a pooled walker's arrays age and the documents it is
    // given are mostly new (parsed for the request). So a call starts with new arrays of the same lengths once the
    // frames have survived a collection. The table stack's array is made and renewed with them; when it grows it is
    // the younger one, and when the frames grow it waits for them. Frames on the large object heap, never in
    // generation 0, are kept.
    private void RenewAgedArrays()
    {
        Debug.Assert(_depth == 0 && _framesUsed == 0, "between calls: the frames hold nothing");
        if (GC.GetGeneration(_frames) != 0 && _frames.Length * Unsafe.SizeOf<Frame>() < JsonConstants.LargeObjectBytes)
        {
            _frames = new Frame[_frames.Length];
            _tables.Renew();
        }
    }

    // The spec's stack: a cycle is a TypeError. Nesting deeper than MaxDepth is a RangeError, as V8 reports running
    // out of stack.
    private void Enter(ObjectInstance o)
    {
        CheckEnter(o);
        Push(o);
    }

    // A frame for a container that CheckEnter has accepted, with no user code run since. Inlined, so that Enter, which
    // is CheckEnter and Push, stays one call.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Push(ObjectInstance o)
    {
        if (_depth == _frames.Length)
        {
            Array.Resize(ref _frames, _frames.Length * 2);
        }

        if (_depth == _framesUsed)
        {
            _framesUsed++;
        }

        _frames[_depth++].Container = o;
        if (_depth > JsonConstants.LinearCycleCheckDepth)
        {
            if (_depth == JsonConstants.LinearCycleCheckDepth + 1)
            {
                _deepStack ??= new HashSet<ObjectInstance>(ObjectIdentity.Instance);
                for (int i = 0; i < _depth; i++)
                {
                    _deepStack.Add(_frames[i].Container!);
                }
            }
            else
            {
                _deepStack!.Add(o);
            }
        }
    }

    // SerializeJSONObject and SerializeJSONArray step 1, and the depth limit, for a container about to be opened.
    private void CheckEnter(ObjectInstance o)
    {
        if (_depth >= _maxDepth)
        {
            Throw.StackOverflow(_engine, _reader);
        }

        if (Contains(o))
        {
            ThrowCycle(o);
        }
    }

    private void Exit()
    {
        ObjectInstance o = _frames[--_depth].Container!;
        if (_depth == JsonConstants.LinearCycleCheckDepth)
        {
            _deepStack!.Clear();
        }
        else if (_depth > JsonConstants.LinearCycleCheckDepth)
        {
            _deepStack!.Remove(o);
        }
    }

    private bool Contains(ObjectInstance o)
    {
        if (_depth > JsonConstants.LinearCycleCheckDepth)
        {
            return _deepStack!.Contains(o);
        }

        // Plain objects and arrays (sealed classes, so the first two tests are cheap) are never CLR wrappers.
        if (o is not JsObject && o is not JsArray && o is IObjectWrapper)
        {
            return ContainsWrapper(o);
        }

        Span<Frame> open = _frames.AsSpan(0, _depth);
        for (int i = 0; i < open.Length; i++)
        {
            if (ReferenceEquals(open[i].Container, o))
            {
                return true;
            }
        }

        return false;
    }

    private bool ContainsWrapper(ObjectInstance o)
    {
        for (int i = 0; i < _depth; i++)
        {
            if (ObjectIdentity.Same(_frames[i].Container!, o))
            {
                return true;
            }
        }

        return false;
    }
}
