using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using Jint.Native.Object;

namespace JsonStringify.Internals;

// The cycle's TypeError: its message names the circle from the walker's stack, only once a cycle has been found.
internal sealed partial class Walker<TOutput>
{
    // SerializeJSONObject and SerializeJSONArray step 1 found repeated on the stack: the circle runs from its frame to
    // the innermost one, and the key being written in the innermost frame closes it.
    [DoesNotReturn]
    private void ThrowCycle(ObjectInstance repeated)
    {
        int start = 0;
        while (!ObjectIdentity.Same(_frames[start].Container!, repeated))
        {
            start++;
        }

        int length = _depth - start;
        var objects = new ObjectInstance[length];
        object[] keys = new object[length];
        for (int i = 0; i < length; i++)
        {
            objects[i] = _frames[start + i].Container!;
            keys[i] = i == 0 ? string.Empty : KeyOfCurrentValue(in _frames[start + i - 1]);
        }

        Throw.CycleDetected(_engine, CycleMessage.Build(objects, keys, KeyOfCurrentValue(in _frames[_depth - 1])));
    }

    // The key of the value a frame is writing (its index has moved past it): the index in an array, the property name
    // in an object.
    private object KeyOfCurrentValue(in Frame frame)
    {
        Debug.Assert(frame.Index > 0);
        ulong i = frame.Index - 1;
        return frame.Kind switch
        {
            FrameKind.Array => i,
            FrameKind.ShapedObject => frame.Layout!.Keys[i].ToString(),
            FrameKind.ListedObject => _propertyList!.Keys[(int)i].ToString(),
            FrameKind.TableObject => _tables.Entries[frame.TableStart + (int)i].Name,
            _ => frame.Keys![(int)i].ToString(),
        };
    }
}
