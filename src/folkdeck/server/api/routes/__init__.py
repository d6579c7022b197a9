"""One ``APIRouter`` per resource."""
